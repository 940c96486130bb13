#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

extension APIClient {
    /// Opens an event stream: sends `request` with `Accept: text/event-stream` and returns the
    /// events of its response as they arrive.
    ///
    /// The request goes through ``/Courier/APIClient/stream(_:)``, so its status is
    /// checked as every other request's: an unacceptable one throws the same ``/Courier/APIError``.
    /// A request that names its own `Accept` keeps it. A response whose `Content-Type` is not
    /// `text/event-stream` throws an ``/Courier/APIError`` of kind
    /// ``/Courier/APIError/Kind/decoding(_:)`` with the head and the first 64 KiB of the body, as
    /// the specification's `EventSource` fails such a response.
    ///
    /// The stream is read once: for reconnection, as `EventSource` does, use
    /// ``events(_:maximumEventBytes:reconnecting:deadline:)``.
    ///
    /// - Parameters:
    ///   - request: The request that opens the stream.
    ///   - maximumEventBytes: The most bytes one line, or the `data` of one event, may hold,
    ///     1 MiB by default; past it a read throws ``ServerSentEventsError``.
    public func events(
        _ request: Request<ResponseBody>,
        maximumEventBytes: Int = ServerSentEventParser.defaultMaximumEventBytes
    ) async throws(APIError) -> ServerSentEvents {
        let (body, head) = try await sendForEvents(request)
        try await requireEventStream(body, head, for: request)
        return ServerSentEvents(body, maximumEventBytes: maximumEventBytes)
    }

    /// The events of `request`, opened again whenever the stream ends, as the WHATWG
    /// `EventSource` reconnects: with `Last-Event-ID`, after the server's `retry` time or the
    /// policy's backoff, until the policy's attempts run out or `deadline` passes.
    ///
    /// ```swift
    /// let events = client.events(Request<ResponseBody>("feed"), reconnecting: .standard, deadline: 3600)
    /// for try await event in events { print(event.lastEventID, event.data) }
    /// ```
    ///
    /// Nothing is sent until the sequence is iterated. ``ReconnectingServerSentEvents`` says
    /// which endings reconnect and which stop.
    ///
    /// - Parameters:
    ///   - request: The request that opens the stream, sent again for each reconnection.
    ///   - maximumEventBytes: The most bytes one line, or the `data` of one event, may hold,
    ///     1 MiB by default; past it a read throws ``ServerSentEventsError`` and nothing reconnects.
    ///   - policy: Which failures reconnect, the backoff, and how many connections in a row may
    ///     deliver no event (``/Courier/RetryPolicy/maximumAttempts``, the first included).
    ///   - deadline: The most seconds the whole sequence may take, streams and waits included;
    ///     past it a read throws `URLError(.timedOut)` naming it. `nil` for no bound.
    public func events(
        _ request: Request<ResponseBody>,
        maximumEventBytes: Int = ServerSentEventParser.defaultMaximumEventBytes,
        reconnecting policy: RetryPolicy,
        deadline: TimeInterval? = nil
    ) -> ReconnectingServerSentEvents {
        ReconnectingServerSentEvents(
            client: self, request: request, maximumEventBytes: maximumEventBytes, policy: policy, deadline: deadline
        )
    }

    /// Sends `request` through ``/Courier/APIClient/stream(_:)``, asking for
    /// `text/event-stream` unless it names its own `Accept`.
    func sendForEvents(_ request: Request<ResponseBody>) async throws(APIError) -> (ResponseBody, ResponseHead) {
        var request = request
        if !request.headers.keys.contains(where: { $0.caseInsensitiveCompare("Accept") == .orderedSame }) {
            request.headers["Accept"] = "text/event-stream"
        }
        return try await stream(request)
    }

    /// Throws the ``/Courier/APIError`` described in ``events(_:maximumEventBytes:)`` unless `head`
    /// says `body` is an event stream.
    func requireEventStream(_ body: ResponseBody, _ head: ResponseHead, for request: Request<ResponseBody>) async throws(APIError) {
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
    }

    /// The most bytes of a body that is not an event stream kept in its ``/Courier/APIError``, as
    /// ``/Courier/APIClient/stream(_:)`` keeps of an unacceptable one.
    private static let unexpectedBodyLimit = 64 << 10

    /// Whether a `Content-Type` value names `text/event-stream`, with any parameters.
    private static func isEventStream(_ contentType: String?) -> Bool {
        guard let essence = contentType?.split(separator: ";", maxSplits: 1).first else { return false }
        return essence.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare("text/event-stream") == .orderedSame
    }
}
