#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ArgumentParser
import Courier
import Foundation

/// `courier request -C/--continue-at OFFSET -o FILE`: curl's resumed download. `-` takes the
/// offset from the size of FILE (0 when it does not exist), a number gives it.
///
/// It does what curl does, not what `download(for:to:)` does: curl sends `Range: bytes=N-`
/// and no `If-Range`, since it keeps no validator, and it refuses an answer it cannot append
/// rather than starting over. So: a 206 whose `Content-Range` starts at the offset is appended;
/// a 416 writes nothing and exits 0, the file taken as complete without checking its size, even
/// with `--fail`; a body whose `Content-Length` is the offset (or 0) writes nothing and exits 0;
/// any other answer with a body (a 200, a 206 elsewhere, an error page without `--fail`) exits
/// 33 without touching the file, curl's "HTTP server doesn't seem to support byte ranges".
struct ContinueAtOptions: ParsableArguments {
    @Option(name: [.customShort("C"), .customLong("continue-at")], help: ArgumentHelp("Resume the -o FILE download at OFFSET bytes (- for FILE's size, 0 when it does not exist) with Range: bytes=OFFSET-, appending a 206 that starts there. As curl: a 416 keeps FILE and exits 0, even with --fail; any other answer with a body (a 200, a 206 elsewhere) exits 33 and leaves FILE as it was. Unlike the library's download(for:to:), no If-Range is sent (so a changed file is not noticed) and a 200 is not written over FILE. Needs -o FILE, where curl would also resume to stdout.", valueName: "offset"))
    var continueAt: String?

    func validate() throws {
        guard let continueAt, continueAt != "-" else { return }
        guard let offset = Int64(continueAt), offset >= 0 else {
            throw ValidationError("-C/--continue-at takes - or a number of bytes, not '\(continueAt)'")
        }
    }

    /// Refuses `-C` without a file to resume: curl would ask a range for stdout, but a body
    /// that continues bytes written somewhere else has nowhere to go here.
    func validate(output: String?) throws {
        guard continueAt != nil else { return }
        guard let output, output != "-" else { throw ValidationError("-C/--continue-at resumes a file: give -o FILE") }
    }

    /// The offset to resume `output` at: `nil` without `-C`, 0 for `-` and a missing file.
    func offset(resuming output: String?) -> Int64? {
        guard let continueAt, let output else { return nil }
        guard continueAt == "-" else { return Int64(continueAt) }
        return ResumableDownload.size(of: URL(fileURLWithPath: output)) ?? 0
    }

    /// `request` asking for the bytes from `offset` on; unchanged for no offset or 0, as curl
    /// sends no range then. `Accept-Encoding: identity` unless `-H` sets the field: curl sends
    /// none by default, and a range counts bytes before any decoding.
    func request(_ request: URLRequest, from offset: Int64?) -> URLRequest {
        guard let offset, offset > 0 else { return request }
        var request = request
        request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
        if request.value(forHTTPHeaderField: "Accept-Encoding") == nil {
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
        return request
    }

    /// Whether the body of `head` is left unwritten, as curl leaves it, with exit status 0: a
    /// 416, or a body of the offset's length or none. Throws exit 33, with a line on stderr,
    /// for a body that does not continue the file; `false` lets the body be appended or
    /// `--fail` judge a status of 400 or more first, as curl does.
    func skipsBody(of head: ResponseHead, offset: Int64?, failing: Bool, method: String, url: URL) throws -> Bool {
        guard let offset, offset > 0 else { return false }
        let contentRange = head.value(forHTTPHeaderField: "Content-Range")
        if head.statusCode == 416 { return true }
        if head.statusCode == 206, let start = contentRange.flatMap(ContentRange.init)?.range?.lowerBound, start == offset {
            return false
        }
        if failing, head.statusCode >= 400 { return false }
        if let length = head.value(forHTTPHeaderField: "Content-Length").flatMap(Int64.init), length == offset || length == 0 {
            return true
        }
        let answer = contentRange.map { "\(head.statusCode) with Content-Range: \($0)" } ?? "\(head.statusCode) without a Content-Range"
        Terminal.errorLine(
            "\(method) \(url.redactedString): HTTP server doesn't seem to support byte ranges. Cannot resume. (asked for the bytes from \(offset), got \(answer))"
        )
        throw ExitCode(CurlExitCode.rangeError)
    }
}
