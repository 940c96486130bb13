#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierSSE
import CourierTestServer
import Foundation
import Testing

/// Reconnection read from the test server's `/sse/resumable/{key}` through every transport. The
/// waits are recorded instead of slept, so no test depends on how fast the machine is.
@Suite struct ReconnectingServerSentEventsTests {
    /// Backoffs of 2 s, 4 s, 8 s… with no jitter, three attempts in a row.
    static let policy = RetryPolicy(maximumAttempts: 3, initialDelay: 2, multiplier: 2, jitter: 0)

    @Test(arguments: ServerSentEventsTests.transports)
    func eachStreamGoesOnAfterTheLastEventIDUntilA204(kind: TransportKind) async throws {
        try await withClient(kind) { client, server, waits in
            let events = events(client, server.url("/sse/resumable/k?count=5&per_connection=2&retry_ms=1500"), waits)
            var received: [ServerSentEvent] = []
            for try await event in events { received.append(event) }
            #expect(received.map(\.data) == ["1", "2", "3", "4", "5"], "\(kind)")
            #expect(received.map(\.lastEventID) == ["1", "2", "3", "4", "5"], "\(kind)")
            #expect(["none", "2", "4", "5"].map { server.visits("k:\($0)") } == [1, 1, 1, 1], "\(kind)")
            #expect(await waits.all == [.milliseconds(1500), .milliseconds(1500), .milliseconds(1500)], "\(kind)")
        }
    }

    /// After a stream that ended, the server's `retry`; after a failed reconnection, the policy's
    /// backoff, never shorter; and after three attempts with no event, the last failure.
    @Test(arguments: ServerSentEventsTests.transports)
    func failedReconnectionsBackOffAndAreBounded(kind: TransportKind) async throws {
        try await withClient(kind) { client, server, waits in
            let url = server.url("/sse/resumable/k?count=2&per_connection=2&retry_ms=1500&after_last=503")
            var received: [String] = []
            do {
                for try await event in events(client, url, waits) { received.append(event.data) }
                Issue.record("\(kind): the attempts were not bounded")
            } catch let error as APIError {
                #expect(error.statusCode == 503, "\(kind)")
            }
            #expect(received == ["1", "2"], "\(kind)")
            #expect(server.visits("k:none") == 1 && server.visits("k:2") == 2, "\(kind)")
            #expect(await waits.all == [.milliseconds(1500), .seconds(4)], "\(kind)")
        }
    }

    /// A 503 with `Retry-After` is waited as it asks, in place of the backoff; one that asks
    /// past the policy's bound ends the sequence with that response at once.
    @Test(arguments: ServerSentEventsTests.transports)
    func retryAfterReplacesTheBackoffUpToThePolicysBound(kind: TransportKind) async throws {
        try await withClient(kind) { client, server, waits in
            let url = server.url("/sse/resumable/ra?count=2&per_connection=2&retry_ms=1500&after_last=503&retry_after=7")
            await #expect(throws: APIError.self, "\(kind)") {
                for try await _ in events(client, url, waits) {}
            }
            #expect(await waits.all == [.milliseconds(1500), .seconds(7)], "\(kind)")
            #expect(server.visits("ra:2") == 2, "\(kind)")
            let tooLong = server.url("/sse/resumable/rb?count=2&per_connection=2&retry_ms=1500&after_last=503&retry_after=3600")
            await #expect(throws: APIError.self, "\(kind)") {
                for try await _ in events(client, tooLong, waits) {}
            }
            #expect(await waits.all == [.milliseconds(1500), .seconds(7), .milliseconds(1500)], "\(kind)")
            #expect(server.visits("rb:2") == 1, "\(kind)")
        }
    }

    /// With no `retry` from the server, every wait is the policy's backoff, its jitter drawn from
    /// the random source: half of 2 s less a quarter, then of 4 s.
    @Test(arguments: ServerSentEventsTests.transports)
    func withNoRetryFieldTheWaitsAreTheBackoff(kind: TransportKind) async throws {
        try await withClient(kind) { client, server, waits in
            var policy = Self.policy
            policy.jitter = 0.5
            let url = server.url("/sse/resumable/k?count=2&per_connection=2&after_last=503")
            let events = ReconnectingServerSentEvents(
                client: client, request: Request<ResponseBody>(url: url), maximumEventBytes: 1024, policy: policy,
                deadline: nil, random: { 0.5 }, sleep: { await waits.record($0) }
            )
            await #expect(throws: APIError.self) { for try await _ in events {} }
            #expect(await waits.all == [.milliseconds(1500), .seconds(3)], "\(kind)")
        }
    }

    @Test(arguments: ServerSentEventsTests.transports)
    func aLostConnectionReconnectsWithoutLosingOrRepeatingAnEvent(kind: TransportKind) async throws {
        try await withClient(kind) { client, server, waits in
            let url = server.url("/sse/resumable/k?count=4&per_connection=2&fault=lose")
            var received: [String] = []
            for try await event in events(client, url, waits) { received.append(event.data) }
            #expect(received == ["1", "2", "3", "4"], "\(kind)")
            #expect(["none", "2", "4"].map { server.visits("k:\($0)") } == [1, 1, 1], "\(kind)")
            #expect(await waits.all == [.seconds(2), .seconds(2)], "\(kind)")
        }
    }

    @Test(arguments: ServerSentEventsTests.transports)
    func aStatusThePolicyDoesNotRetryStopsAtOnce(kind: TransportKind) async throws {
        try await withClient(kind) { client, server, waits in
            let url = server.url("/sse/resumable/k?count=0&after_last=404")
            do {
                for try await _ in events(client, url, waits) {}
                Issue.record("\(kind): a 404 opened a stream")
            } catch let error as APIError {
                #expect(error.kind == .notFound, "\(kind)")
            }
            #expect(server.visits("k:none") == 1, "\(kind)")
            #expect(await waits.all.isEmpty, "\(kind)")
        }
    }

    @Test(arguments: ServerSentEventsTests.transports)
    func anEventPastTheLimitStopsWithoutReconnecting(kind: TransportKind) async throws {
        try await withClient(kind) { client, server, waits in
            let events = events(client, server.url("/sse/endless-line"), waits, maximumEventBytes: 1024)
            await #expect(throws: ServerSentEventsError(code: .lineTooLong, maximumBytes: 1024)) {
                for try await _ in events {}
            }
            #expect(await waits.all.isEmpty, "\(kind)")
        }
    }

    /// A `retry` of an hour cannot end inside a deadline of 300 s, so the stream stops when the
    /// first one ends. The deadline is longer than any machine takes to deliver the first two
    /// events, so only a wait begun past it, or one not begun, tells the outcomes apart.
    @Test(arguments: ServerSentEventsTests.transports)
    func aWaitPastTheDeadlineStopsWithTheDeadline(kind: TransportKind) async throws {
        try await withClient(kind) { client, server, waits in
            let url = server.url("/sse/resumable/k?count=4&per_connection=2&retry_ms=3600000")
            var received: [String] = []
            do {
                for try await event in events(client, url, waits, deadline: 300) { received.append(event.data) }
                Issue.record("\(kind): the deadline was not kept")
            } catch let error as URLError {
                #expect(error.code == .timedOut, "\(kind)")
                #expect(error.localizedDescription.contains("deadline of 300 s"), "\(kind): \(error.localizedDescription)")
            }
            #expect(received == ["1", "2"], "\(kind)")
            #expect(server.visits("k:2") == 0, "\(kind)")
            #expect(await waits.all.isEmpty, "\(kind)")
        }
    }

    /// The wait never ends by itself: only the cancellation of the task iterating ends it.
    @Test(arguments: ServerSentEventsTests.transports)
    func cancellingTheTaskStopsAWaitAndReconnectsNoMore(kind: TransportKind) async throws {
        try await withClient(kind) { client, server, _ in
            let (waiting, waitBegan) = AsyncStream.makeStream(of: Duration.self)
            let url = server.url("/sse/resumable/k?count=4&per_connection=2&retry_ms=1500")
            let events = ReconnectingServerSentEvents(
                client: client, request: Request<ResponseBody>(url: url), maximumEventBytes: 1024, policy: Self.policy,
                deadline: nil, random: { 0 },
                sleep: { wait in
                    waitBegan.yield(wait)
                    try await Task.sleep(for: .seconds(3600))
                }
            )
            let reader = Task {
                var received: [String] = []
                for try await event in events { received.append(event.data) }
                return received
            }
            for await _ in waiting { break }
            reader.cancel()
            let result = await reader.result
            #expect(throws: URLError.self, "\(kind)") { try result.get() }
            #expect(server.visits("k:none") == 1 && server.visits("k:2") == 0, "\(kind)")
        }
    }

    /// The events of `url` reconnecting by ``policy``, with each wait recorded in `waits`.
    private func events(
        _ client: APIClient, _ url: URL, _ waits: Waits, maximumEventBytes: Int = 1024, deadline: TimeInterval? = nil
    ) -> ReconnectingServerSentEvents {
        ReconnectingServerSentEvents(
            client: client, request: Request<ResponseBody>(url: url), maximumEventBytes: maximumEventBytes,
            policy: Self.policy, deadline: deadline, random: { 0 }, sleep: { await waits.record($0) }
        )
    }

    /// The waits a sequence asked for, in order.
    actor Waits {
        private(set) var all: [Duration] = []

        func record(_ wait: Duration) {
            all.append(wait)
        }
    }

    /// Runs `body` as ``withEventStreamClient(_:_:)`` does, with an empty record of waits.
    private func withClient(_ kind: TransportKind, _ body: (APIClient, TestServer, Waits) async throws -> Void) async throws {
        try await withEventStreamClient(kind) { client, server in try await body(client, server, Waits()) }
    }
}
