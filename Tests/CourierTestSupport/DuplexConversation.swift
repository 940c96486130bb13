#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// A conversation over one duplex exchange with the test server's `/duplex-echo`: the upload
/// produces its first line at once, or only once the response's head has arrived
/// (``opensWithALine``), and each next line only once the echo of the one before has been read. An engine that hands over the response only after its
/// upload has ended cannot finish it; the caller bounds it with ``awaitWithin(seconds:_:)``.
package struct DuplexConversation: Sendable {
    /// What is sent, one line per round.
    package let lines: [Data]
    /// Whether the first line is ready before the exchange starts. When it is not, the server
    /// must answer a request whose body has not begun, which an HTTP/2 proxy that waits for the
    /// first DATA frame before it forwards the request (nginx) never does.
    package let opensWithALine: Bool

    package init(rounds: Int, opensWithALine: Bool = false) {
        lines = (0..<rounds).map { Data("line \($0 + 1) of \(rounds)\n".utf8) }
        self.opensWithALine = opensWithALine
    }

    /// What came back: after each round, everything received so far; then all of the body.
    package struct Transcript: Sendable {
        package var head: ResponseHead
        package var afterEachRound: [Data] = []
        package var whole = Data()
    }

    /// Everything sent up to and including `round`, which is what its echo must have returned.
    package func sent(through round: Int) -> Data {
        lines.prefix(round + 1).reduce(into: Data()) { $0.append($1) }
    }

    /// Sends `request` with the lines as a ``RequestBody/duplex(_:length:)`` body and holds the
    /// conversation, reading each echo before the next line is produced.
    package func hold(over streaming: StreamingNetworking, request: URLRequest) async throws -> Transcript {
        let (upload, producer) = AsyncStream.makeStream(of: Data.self)
        defer { producer.finish() }
        if opensWithALine, let first = lines.first { producer.yield(first) }
        let (body, head) = try await streaming(request, .duplex(upload))
        var transcript = Transcript(head: head)
        var chunks = body.makeAsyncIterator()
        var received = Data()
        for (round, line) in lines.enumerated() {
            if round > 0 || !opensWithALine { producer.yield(line) }
            let expected = sent(through: round).count
            while received.count < expected, let chunk = try await chunks.next() {
                received.append(chunk)
            }
            transcript.afterEachRound.append(received)
        }
        producer.finish()
        while let chunk = try await chunks.next() {
            received.append(chunk)
        }
        transcript.whole = received
        return transcript
    }
}
