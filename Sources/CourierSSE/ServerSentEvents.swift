#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// The events of a `text/event-stream` response body, read as they arrive.
///
/// ```swift
/// let (body, _) = try await client.stream(Request<ResponseBody>("feed"))
/// for try await event in body.serverSentEvents() {
///     print(event.type, event.data)
/// }
/// ```
///
/// Iterate it once, as its ``/Courier/ResponseBody``. The sequence ends when the body does; an event
/// the body ends in the middle of, before its blank line, is dropped. A read throws what the
/// body throws, and ``ServerSentEventsError`` once a line or an event passes
/// ``maximumEventBytes``; the iterator then lets go of the body, and dropping the sequence too
/// stops the transfer. Reconnection is not done here: ``ServerSentEvent/lastEventID`` and
/// ``ServerSentEvent/reconnectionTime`` are what a caller needs to send the request again.
public struct ServerSentEvents: AsyncSequence, Sendable {
    public typealias Element = ServerSentEvent
    public typealias Failure = any Error

    private let body: ResponseBody

    /// The most bytes one line, or the `data` of one event, may hold.
    public let maximumEventBytes: Int

    /// The events of `body`.
    ///
    /// - Parameters:
    ///   - body: A response body in the `text/event-stream` format, read as it arrives.
    ///   - maximumEventBytes: The most bytes one line, or the `data` of one event, may hold,
    ///     1 MiB by default; past it a read throws ``ServerSentEventsError``.
    public init(_ body: ResponseBody, maximumEventBytes: Int = ServerSentEventParser.defaultMaximumEventBytes) {
        self.body = body
        self.maximumEventBytes = Swift.max(1, maximumEventBytes)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: body.makeAsyncIterator(), parser: ServerSentEventParser(maximumEventBytes: maximumEventBytes))
    }

    /// Reads the events one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// `nil` once the body has ended or failed, so that it is read no further.
        private var chunks: ResponseBody.AsyncIterator?
        private var parser: ServerSentEventParser
        /// Events the last chunk completed, returned one per call before the next chunk is read.
        private var ready: [ServerSentEvent] = []
        private var readyIndex = 0
        /// Thrown once the events the failing chunk completed before it have been returned.
        private var failure: ServerSentEventsError?

        init(chunks: ResponseBody.AsyncIterator, parser: ServerSentEventParser) {
            self.chunks = chunks
            self.parser = parser
        }

        /// The parser as this body left it: its ``ServerSentEventParser/lastEventID`` and
        /// ``ServerSentEventParser/reconnectionTime`` are what a reconnection goes on from.
        var currentParser: ServerSentEventParser { parser }

        public mutating func next() async throws -> ServerSentEvent? {
            while true {
                if readyIndex < ready.count {
                    defer { readyIndex += 1 }
                    return ready[readyIndex]
                }
                ready.removeAll(keepingCapacity: true)
                readyIndex = 0
                if let failure {
                    self.failure = nil
                    throw failure
                }
                guard var source = chunks else { return nil }
                chunks = nil
                guard let chunk = try await source.next() else {
                    parser.finish()
                    return nil
                }
                do throws(ServerSentEventsError) {
                    try parser.parse(chunk, into: &ready)
                    chunks = source
                } catch {
                    failure = error
                }
            }
        }
    }
}

extension ResponseBody {
    /// This body's events, as a `text/event-stream`.
    ///
    /// - Parameter maximumEventBytes: The most bytes one line, or the `data` of one event, may
    ///   hold, 1 MiB by default; past it a read throws ``ServerSentEventsError``.
    public func serverSentEvents(
        maximumEventBytes: Int = ServerSentEventParser.defaultMaximumEventBytes
    ) -> ServerSentEvents {
        ServerSentEvents(self, maximumEventBytes: maximumEventBytes)
    }
}
