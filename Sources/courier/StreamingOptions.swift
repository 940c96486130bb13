#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ArgumentParser
import Courier
import CourierCurl
import Foundation

/// curl's `-T/--upload-file` and `-N/--no-buffer` for `courier request`.
///
/// `-T FILE` sends the file as the body, read while it is sent, with its `Content-Length`, by
/// PUT unless `-X` says otherwise; a URL with no file part (`http://host/dir/`) gets the file's
/// name appended, as curl does. `-T -` sends standard input, each piece as soon as it is read
/// (``StandardInputChunks``), as a duplex body: the response can be read while it is still
/// being sent, which only the curl transport does, so with `--transport urlsession` it is
/// refused before anything is sent. `-N` writes the body to stdout as it arrives, instead of
/// once it is complete; with both, a process can hold a conversation through the tool.
struct StreamingOptions: ParsableArguments {
    @Option(name: [.customShort("T"), .customLong("upload-file")], help: ArgumentHelp("Send FILE as the body, by PUT unless -X says otherwise; a URL ending in / gets the file's name. - sends stdin, each piece as soon as it is read (curl transport only).", valueName: "file"))
    var uploadFile: String?

    @Flag(name: [.customShort("N"), .customLong("no-buffer")], help: "Write the body to stdout as it arrives, not once it is complete.")
    var noBuffer = false

    /// Whether standard input is sent as it is read.
    private var sendsStandardInput: Bool { uploadFile == "-" }

    /// Usage errors: `-T` with another body, and what streams one exchange given several URLs.
    func validate(urlCount: Int, otherBodyGiven: Bool, output: String?) throws {
        if uploadFile != nil, otherBodyGiven {
            throw ValidationError("give -T, or -d, --json or -F, not both: a request has one body")
        }
        if sendsStandardInput, urlCount > 1 { throw ValidationError("-T - reads stdin once: give one URL with it") }
        if noBuffer, urlCount > 1 { throw ValidationError("-N streams one response: give one URL with it") }
        if noBuffer, let output, output != "-" { throw ValidationError("-N writes to stdout: give it without -o") }
    }

    /// PUT for `-T`, as curl sends it.
    var impliedMethod: String? { uploadFile == nil ? nil : "PUT" }

    /// Where the body goes as it arrives: `-` (stdout) with `-N`.
    var output: String? { noBuffer ? "-" : nil }

    /// `url`, with the file's name appended when it has no file part, as curl does for `-T`.
    func target(_ url: URL) -> URL {
        // `path` drops a trailing slash; the percent-encoded form keeps it.
        let path = url.path(percentEncoded: true)
        guard let uploadFile, uploadFile != "-", path.isEmpty || path.hasSuffix("/") else { return url }
        let name = URL(fileURLWithPath: uploadFile).lastPathComponent
        return url.appendingPathComponent(name)
    }

    /// The `-T` body, or nil without it; exits 26 when the file cannot be read, as curl does.
    func upload(method: String, url target: URL) throws -> RequestBody? {
        guard let uploadFile else { return nil }
        if sendsStandardInput { return .duplex(StandardInputChunks()) }
        do {
            return try .file(URL(fileURLWithPath: uploadFile))
        } catch {
            Terminal.errorLine("\(method) \(target.redactedString): cannot read \(uploadFile): \(RequestCommand.describe(fileError: error))")
            throw ExitCode(CurlExitCode.readError)
        }
    }

    /// An exchange that sends `upload` through `streaming` and collects the response body, up
    /// to `limit` bytes, as the transport's buffered exchange would.
    static func exchange(sending upload: RequestBody, over streaming: @escaping StreamingNetworking, limit: Int) -> HTTPExchange {
        { request in
            let (body, head) = try await streaming(request, upload)
            return (try await body.collect(upTo: limit), head)
        }
    }

    /// Why `transport` cannot honour these flags, before anything is sent: only the curl
    /// transport reads the response while standard input is still being sent.
    func refusal(for transport: TransportKind) -> RequestError? {
        guard transport == .urlSession, sendsStandardInput else { return nil }
        return .unsupportedOption(
            "send standard input as it is read while reading the response (-T -)", transport: "URLSessionTransport",
            supportedBy: "CurlTransport"
        )
    }
}
