#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

extension APIClient {
    /// Opens an event stream: sends `request` with `Accept: text/event-stream` and returns the
    /// events of its response as they arrive.
    ///
    /// The request goes through ``Courier/APIClient/stream(_:uploading:)``, so its status is
    /// checked as every other request's: an unacceptable one throws the same ``Courier/APIError``.
    /// A request that names its own `Accept` keeps it. A response whose `Content-Type` is not
    /// `text/event-stream` throws an ``Courier/APIError`` of kind
    /// ``Courier/APIError/Kind/decoding(_:)`` with the head and the first 64 KiB of the body, as
    /// the specification's `EventSource` fails such a response.
    ///
    /// Reconnection is left to the caller: send the request again with a `Last-Event-ID`
    /// header of the last event's ``ServerSentEvent/lastEventID``, after its
    /// ``ServerSentEvent/reconnectionTime``.
    ///
    /// - Parameter maximumEventBytes: The most bytes one line, or the `data` of one event, may
    ///   hold, 1 MiB by default; past it a read throws ``ServerSentEventsError``.
    public func events(
        _ request: Request<ResponseBody>,
        maximumEventBytes: Int = ServerSentEventParser.defaultMaximumEventBytes
    ) async throws(APIError) -> ServerSentEvents {
        var request = request
        if !request.headers.keys.contains(where: { $0.caseInsensitiveCompare("Accept") == .orderedSame }) {
            request.headers["Accept"] = "text/event-stream"
        }
        let (body, head) = try await stream(request)
        let contentType = head.value(forHTTPHeaderField: "Content-Type")
        guard Self.isEventStream(contentType) else {
            let urlRequest = try? urlRequest(for: request)
            let context = DecodingError.Context(
                codingPath: [],
                debugDescription: "expected Content-Type text/event-stream, got \(contentType.map { "'\($0)'" } ?? "none")"
            )
            // What arrived before a failure is what the error can show, so a failure only ends it.
            var kept = Data()
            var chunks = body.makeAsyncIterator()
            while kept.count < Self.unexpectedBodyLimit, let chunk = try? await chunks.next() {
                kept.append(chunk.prefix(Self.unexpectedBodyLimit - kept.count))
            }
            throw APIError(
                kind: .decoding(.dataCorrupted(context)),
                method: urlRequest?.httpMethod ?? "GET",
                url: urlRequest?.url ?? head.url,
                head: head,
                body: kept
            )
        }
        return ServerSentEvents(body, maximumEventBytes: maximumEventBytes)
    }

    /// The most bytes of a body that is not an event stream kept in its ``Courier/APIError``, as
    /// ``Courier/APIClient/stream(_:uploading:)`` keeps of an unacceptable one.
    private static let unexpectedBodyLimit = 64 << 10

    /// Whether a `Content-Type` value names `text/event-stream`, with any parameters.
    private static func isEventStream(_ contentType: String?) -> Bool {
        guard let essence = contentType?.split(separator: ";", maxSplits: 1).first else { return false }
        return essence.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare("text/event-stream") == .orderedSame
    }
}
