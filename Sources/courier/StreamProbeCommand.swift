#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ArgumentParser
import Courier
import CourierCurl
import CourierSSE
import Foundation

/// `courier stream-probe`: one streamed exchange and nothing else, for `scripts/stream-memory`,
/// which reads the peak memory of the process that ran it. Hidden from help.
struct StreamProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream-probe",
        abstract: "Stream one body through the streaming API and print its byte count (for scripts/stream-memory).",
        shouldDisplay: false
    )

    enum Mode: String, ExpressibleByArgument, CaseIterable {
        /// GET the URL and read its body, keeping nothing.
        case download
        /// PUT the file at `--file` to the URL.
        case uploadFile = "upload-file"
        /// PUT `--bytes` zeros from an `AsyncSequence` to the URL.
        case uploadStream = "upload-stream"
        /// GET the URL and read its body as server-sent events, keeping none.
        case events
    }

    @Argument(help: "download, upload-file, upload-stream or events.")
    var mode: Mode

    @Argument(help: "The http URL.")
    var url: String

    @Option(help: "curl or urlsession (default: COURIER_TRANSPORT, else urlsession).")
    var transport: TransportKind?

    @Option(help: "The file upload-file sends.")
    var file: String?

    @Option(help: "How many bytes upload-stream sends.")
    var bytes: Int64 = 0

    func run() async throws {
        let target = try RequestURL.parse(url)
        var policies = Policies()
        policies.maximumResponseBytes = Int.max
        let streaming = try (transport ?? TransportKind.fromEnvironment()).makeStreaming(policies: policies)
        var request = URLRequest(url: target)
        let upload: RequestBody?
        switch mode {
        case .download, .events:
            upload = nil
        case .uploadFile:
            guard let file else { throw ValidationError("upload-file needs --file") }
            request.httpMethod = "PUT"
            upload = try RequestBody.file(URL(fileURLWithPath: file))
        case .uploadStream:
            request.httpMethod = "PUT"
            upload = .stream(ZeroChunks(count: bytes), length: bytes)
        }
        do {
            let (body, head) = try await streaming(request, upload)
            let status = head.statusCode
            if mode == .download {
                var received: Int64 = 0
                for try await chunk in body { received += Int64(chunk.count) }
                Terminal.line("status \(status), received \(received) bytes")
            } else if mode == .events {
                var (events, bytes) = (0, 0)
                for try await event in body.serverSentEvents() {
                    events += 1
                    bytes += event.data.utf8.count
                }
                Terminal.line("status \(status), \(events) events, \(bytes) bytes of data")
            } else {
                // The sink's answer, {"bytes": n}, says how much arrived.
                Terminal.line("status \(status), \(String(decoding: try await body.collect(upTo: 4096), as: UTF8.self))")
            }
        } catch {
            // Through APIError, as `request` reports: an error's own description lists its user
            // info, and with it the failing URL as given, password and all.
            Terminal.errorLine(APIError(kind: .transport(error), method: request.httpMethod ?? "GET", url: target).description)
            throw ExitCode(1)
        }
    }
}

/// `count` zero bytes in 64 KiB chunks, made as they are asked for.
private struct ZeroChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let count: Int64

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: Int64

        mutating func next() async -> Data? {
            guard remaining > 0 else { return nil }
            let size = Int(Swift.min(remaining, 64 << 10))
            remaining -= Int64(size)
            return Data(count: size)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(remaining: count)
    }
}
