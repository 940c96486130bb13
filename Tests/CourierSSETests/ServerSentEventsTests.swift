#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierSSE
import CourierTestServer
import Foundation
import Testing

/// The event sequence over a body, and the client's event streams read from the test server's
/// `/sse` routes through every transport.
@Suite struct ServerSentEventsTests {
    /// The transports this run tests: the one `COURIER_TRANSPORT` names, or all of them.
    static var transports: [TransportKind] {
        guard let name = ProcessInfo.processInfo.environment["COURIER_TRANSPORT"], !name.isEmpty else {
            return TransportKind.allCases
        }
        return TransportKind.allCases.filter { $0.rawValue == name.lowercased() }
    }

    /// Event `index` of the test server's `/sse`, as the specification dispatches it.
    static func tick(_ index: Int) -> ServerSentEvent {
        ServerSentEvent(
            type: "tick",
            data: "{\"index\":\(index),\n\"text\":\"caf\u{E9} \u{1F600}\"}",
            lastEventID: "\(index)",
            reconnectionTime: .milliseconds(1500)
        )
    }

    @Test func aBodyEndingInTheMiddleOfAnEventEndsTheSequenceWithoutIt() async throws {
        let body = ResponseBody(Data("data: a\n\nevent: x\ndata: b\n".utf8))
        var events: [ServerSentEvent] = []
        for try await event in body.serverSentEvents() { events.append(event) }
        #expect(events == [ServerSentEvent(data: "a")])
    }

    @Test func theSequenceThrowsPastTheLimitAndThenEnds() async throws {
        let body = ResponseBody(Data(("data: ok\n\ndata: " + String(repeating: "z", count: 100) + "\n\n").utf8))
        var iterator = ServerSentEvents(body, maximumEventBytes: 32).makeAsyncIterator()
        #expect(try await iterator.next() == ServerSentEvent(data: "ok"))
        await #expect(throws: ServerSentEventsError(code: .lineTooLong, maximumBytes: 32)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test(arguments: transports)
    func eventsArriveWholeHoweverTheBodyIsCut(kind: TransportKind) async throws {
        try await withEventStreamClient(kind) { client, server in
            for chunkSize in [1, 3, 7, 64] {
                let url = server.url("/sse?count=5&chunk_size=\(chunkSize)&interval_ms=1")
                var events: [ServerSentEvent] = []
                for try await event in try await client.events(Request<ResponseBody>(url: url)) {
                    events.append(event)
                }
                #expect(events == (1...5).map(Self.tick), "\(kind), chunks of \(chunkSize) bytes")
                #expect(server.lastRequest?.value(for: "Accept") == "text/event-stream")
            }
        }
    }

    /// The first 128 bytes hold the stream's preamble and all of event 1; the next piece would
    /// come only after the server's hold of 300 s, longer than the suite's time limit. A reader
    /// that waited for more than the blank line ending event 1 never gets it, and the test runs
    /// into the limit; one that reads as bytes arrive has it, however slow the machine.
    ///
    /// On libcurl only: FoundationNetworking was seen, on a loaded machine, to hand a piece of a
    /// stream to its delegate only when the next piece arrived (10 s late in one full run), which
    /// no code of Courier's decides; see the CourierSSE article.
    @Test(.timeLimit(.minutes(2)), arguments: transports.filter { $0 == .curl })
    func anEventArrivesBeforeTheRestOfTheStream(kind: TransportKind) async throws {
        try await withEventStreamClient(kind) { client, server in
            let url = server.url("/sse?count=3&chunk_size=128&interval_ms=300000")
            let first = try await client.events(Request<ResponseBody>(url: url)).first { _ in true }
            #expect(first == Self.tick(1))
        }
    }

    /// Many events in large chunks, each cut where a chunk ends: every one arrives whole.
    @Test(arguments: transports)
    func aFloodOfEventsArrivesWholeAndInOrder(kind: TransportKind) async throws {
        try await withEventStreamClient(kind) { client, server in
            var (count, wrong) = (0, 0)
            for try await event in try await client.events(Request<ResponseBody>(url: server.url("/sse/flood/4194304"))) {
                count += 1
                if event.data.utf8.count != 1016 || event.data.contains(where: { $0 != "x" }) { wrong += 1 }
            }
            #expect(count == 4096, "\(kind)")
            #expect(wrong == 0, "\(kind)")
        }
    }

    @Test(arguments: transports)
    func aLineThatNeverEndsFailsWithTheLimit(kind: TransportKind) async throws {
        try await withEventStreamClient(kind) { client, server in
            let events = try await client.events(Request<ResponseBody>(url: server.url("/sse/endless-line")), maximumEventBytes: 256 << 10)
            await #expect(throws: ServerSentEventsError(code: .lineTooLong, maximumBytes: 256 << 10)) {
                for try await _ in events {}
            }
        }
    }

    @Test(arguments: transports)
    func theClientValidatesTheStatusAndTheContentType(kind: TransportKind) async throws {
        try await withEventStreamClient(kind) { client, server in
            do throws(APIError) {
                _ = try await client.events(Request<ResponseBody>(url: server.url("/status/404")))
                Issue.record("\(kind): a 404 opened a stream")
            } catch {
                #expect(error.kind == .notFound)
            }
            do throws(APIError) {
                _ = try await client.events(Request<ResponseBody>(url: server.url("/get")))
                Issue.record("\(kind): a JSON body opened a stream")
            } catch {
                guard case .decoding = error.kind else {
                    Issue.record("\(kind): \(error)")
                    return
                }
                #expect(error.statusCode == 200)
                #expect(error.body?.isEmpty == false)
                #expect("\(error)".contains("text/event-stream"))
            }
            let accept = Request<ResponseBody>(url: server.url("/sse?count=1"), headers: ["accept": "text/event-stream, */*;q=0.1"])
            var events: [ServerSentEvent] = []
            for try await event in try await client.events(accept) { events.append(event) }
            #expect(events == [Self.tick(1)])
            #expect(server.lastRequest?.values(for: "Accept") == ["text/event-stream, */*;q=0.1"])
        }
    }
}
