#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Synchronization
import Testing

/// Retries on both engines against `/flaky`, whose first requests for a key fail: the shared
/// policy layer must see the same failures from both and retry them the same way. Each test
/// uses a key of its own, so tests share the suite's server.
@Suite(.testServer) struct TransportRetryTests {
    /// Three attempts, 10 ms apart, without jitter: short waits a test can afford.
    private static let quick = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, jitter: 0)

    private static func policies(_ retries: RetryPolicy = quick, totalDeadline: TimeInterval? = nil) -> Policies {
        var policies = Policies()
        policies.retries = retries
        policies.totalDeadline = totalDeadline
        return policies
    }

    private static func key() -> String { UUID().uuidString }

    @Test(arguments: TransportKind.configured)
    func aRouteThatFailsTwiceIsAnsweredOnTheThirdAttempt(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let (_, head) = try await transport.withRetryingTransport(policies: Self.policies()) { retrying in
            try await retrying.exchange(URLRequest(url: server.url("/flaky/\(key)/2")))
        }
        #expect(head.statusCode == 200)
        #expect(head.headerFields["X-Visit"] == "3")
        #expect(server.visits(key) == 3)
        #expect(head.metrics.attempts.map(\.statusCode) == [503, 503])
        #expect(head.metrics.attempts.allSatisfy { $0.errorCode == nil })
        // 10 ms, then twice that.
        #expect(head.metrics.attempts.map(\.delay) == [.milliseconds(10), .milliseconds(20)])
    }

    @Test(arguments: TransportKind.configured)
    func aClosedConnectionIsRetried(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let (_, head) = try await transport.withRetryingTransport(policies: Self.policies()) { retrying in
            try await retrying.exchange(URLRequest(url: server.url("/flaky/\(key)/1?fault=close")))
        }
        #expect(head.statusCode == 200)
        #expect(server.visits(key) == 2)
        #expect(head.metrics.attempts.map(\.errorCode) == [.badServerResponse])
    }

    @Test(arguments: TransportKind.configured)
    func retryAfterInSecondsIsWaitedInsteadOfTheBackoff(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let waits = RecordedWaits()
        let (_, response) = try await transport.withRetryingEngine(Self.quick, waits: waits) { networking in
            try await networking(URLRequest(url: server.url("/flaky/\(key)/1?retry_after=7")))
        }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(waits.all == [.seconds(7)])
    }

    @Test(arguments: TransportKind.configured)
    func retryAfterAsAnHTTPDateIsWaitedUntil(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let sent = Date()
        let date = Self.httpDate(sent.addingTimeInterval(30))
        let waits = RecordedWaits()
        let (_, response) = try await transport.withRetryingEngine(Self.quick, waits: waits) { networking in
            try await networking(URLRequest(url: server.url("/flaky/\(key)/1?retry_after=\(date)")))
        }
        let took = Date().timeIntervalSince(sent)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        // The wait is what was left until the date when the 503 came: at most 30 s, and short
        // of it by no more than the call took (the waits are recorded, not slept) plus the
        // second the date's whole seconds drop.
        let waited = try #require(waits.all.first)
        #expect(waited <= .seconds(30) && waited >= .seconds(29 - took), "\(waited) after a call of \(took) s")
    }

    @Test(arguments: TransportKind.configured)
    func retryAfterBeyondTheCapReturnsTheResponseWithoutWaiting(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let waits = RecordedWaits()
        var policy = Self.quick
        policy.maximumRetryAfter = 60
        let (_, response) = try await transport.withRetryingEngine(policy, waits: waits) { networking in
            try await networking(URLRequest(url: server.url("/flaky/\(key)/1?retry_after=61")))
        }
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 503)
        #expect(http.value(forHTTPHeaderField: "Retry-After") == "61")
        #expect(waits.all.isEmpty)
        #expect(server.visits(key) == 1)
    }

    @Test(arguments: TransportKind.configured)
    func aPOSTIsNotRetried(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        var request = URLRequest(url: server.url("/flaky/\(key)/1"))
        request.httpMethod = "POST"
        request.httpBody = Data("order".utf8)
        let (_, head) = try await transport.withRetryingTransport(policies: Self.policies()) { retrying in
            try await retrying.exchange(request)
        }
        #expect(head.statusCode == 503)
        #expect(server.visits(key) == 1)
        #expect(head.metrics.attempts.isEmpty)
    }

    @Test(arguments: TransportKind.configured)
    func aPOSTIsRetriedWhenTheRequestOptsInAndTheFieldNeverReachesTheServer(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        var request = URLRequest(url: server.url("/flaky/\(key)/1"))
        request.httpMethod = "POST"
        request.httpBody = Data("order".utf8)
        request.setValue("always", forHTTPHeaderField: RetryPolicy.requestField)
        let (data, head) = try await transport.withRetryingTransport(policies: Self.policies()) { retrying in
            try await retrying.exchange(request)
        }
        #expect(head.statusCode == 200)
        #expect(server.visits(key) == 2)
        let echoed = try echo(data)
        #expect(echoed.bodyData == Data("order".utf8))
        #expect(echoed.headerValues(RetryPolicy.requestField).isEmpty)
    }

    @Test(arguments: TransportKind.configured)
    func aPOSTIsRetriedWhenThePolicyRetriesAnyMethod(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        var request = URLRequest(url: server.url("/flaky/\(key)/1"))
        request.httpMethod = "POST"
        var policy = Self.quick
        policy.retriesAnyMethod = true
        let (_, head) = try await transport.withRetryingTransport(policies: Self.policies(policy)) { retrying in
            try await retrying.exchange(request)
        }
        #expect(head.statusCode == 200)
        #expect(server.visits(key) == 2)
    }

    @Test(arguments: TransportKind.configured)
    func theFieldIsRemovedWhenRetriesAreOff(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        var request = URLRequest(url: server.url("/get"))
        request.setValue("never", forHTTPHeaderField: RetryPolicy.requestField)
        let (data, head) = try await transport.withRetryingTransport(policies: Policies()) { retrying in
            try await retrying.exchange(request)
        }
        #expect(head.statusCode == 200)
        #expect(try echo(data).headerValues(RetryPolicy.requestField).isEmpty)
    }

    @Test(arguments: TransportKind.configured)
    func aStreamedUploadIsNeverRetriedAndABodyInMemoryIs(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let streamedKey = Self.key()
        let dataKey = Self.key()
        try await transport.withRetryingTransport(policies: Self.policies()) { retrying in
            var request = URLRequest(url: server.url("/flaky/\(streamedKey)/1"))
            request.httpMethod = "PUT"
            let chunks = AsyncStream<Data> { continuation in
                continuation.yield(Data("chunked ".utf8))
                continuation.yield(Data("body".utf8))
                continuation.finish()
            }
            let (_, streamedResponse) = try await retrying.streaming(request, .stream(chunks))
            #expect(streamedResponse.statusCode == 503)

            request.url = server.url("/flaky/\(dataKey)/1")
            let (body, response) = try await retrying.streaming(request, .data(Data("in memory".utf8)))
            #expect(response.statusCode == 200)
            var received = Data()
            for try await chunk in body { received.append(chunk) }
            #expect(try echo(received).bodyData == Data("in memory".utf8))
        }
        #expect(server.visits(streamedKey) == 1)
        #expect(server.visits(dataKey) == 2)
    }

    @Test(arguments: TransportKind.configured)
    func aStreamedResponseIsRetriedAtItsHead(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        try await transport.withRetryingTransport(policies: Self.policies()) { retrying in
            let (body, response) = try await retrying.streaming(URLRequest(url: server.url("/flaky/\(key)/2?status=500")), nil)
            #expect(response.statusCode == 200)
            var received = Data()
            for try await chunk in body { received.append(chunk) }
            #expect(try echo(received).path == "/flaky/\(key)/2")
        }
        #expect(server.visits(key) == 3)
    }

    @Test(arguments: TransportKind.configured)
    func exhaustedAttemptsReturnTheLastResponse(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let (_, head) = try await transport.withRetryingTransport(policies: Self.policies()) { retrying in
            try await retrying.exchange(URLRequest(url: server.url("/flaky/\(key)/10?status=502")))
        }
        #expect(head.statusCode == 502)
        #expect(head.headerFields["X-Visit"] == "3")
        #expect(head.metrics.attempts.count == 2)
        #expect(server.visits(key) == 3)
    }

    @Test(arguments: TransportKind.configured)
    func anAPIClientSaysHowManyAttemptsAStatusTook(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let error = try await transport.withRetryingTransport(policies: Self.policies()) { retrying in
            let client = APIClient(baseURL: server.baseURL, exchange: retrying.exchange)
            return await #expect(throws: APIError.self) { try await client.send(Request<Data>("flaky/\(key)/10")) }
        }
        #expect(error?.statusCode == 503)
        #expect(error?.description.contains("(status 503, after 3 attempts): server error 503") == true, "\(String(describing: error))")
    }

    @Test(arguments: TransportKind.configured)
    func exhaustedAttemptsThrowTheLastErrorSayingHowManyWereMade(_ transport: TransportKind) async throws {
        let refusing = try await RefusingPort.open()
        let url = refusing.url("/get")
        let result = try await transport.withRetryingTransport(policies: Self.policies()) { retrying in
            await Result { try await retrying.exchange(URLRequest(url: url)) }
        }
        try await refusing.close()
        let error = try #require(result.failure as? URLError)
        #expect(error.code == .cannotConnectToHost)
        #expect(error.localizedDescription.hasPrefix("could not connect to the server"), "\(error.localizedDescription)")
        #expect(error.localizedDescription.hasSuffix(", after 3 attempts (GET \(url.absoluteString))"), "\(error.localizedDescription)")
    }

    @Test(.timeLimit(.minutes(5)), arguments: TransportKind.configured)
    func cancellingDuringABackoffWaitStopsAtOnce(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let waiting = AsyncStream<Void>.makeStream()
        // The real sleep, for a wait no test would sit through, once the layer says it waits.
        let sleep: @Sendable (Duration) async throws -> Void = { duration in
            waiting.continuation.yield()
            try await Task.sleep(for: duration)
        }
        let policy = RetryPolicy(maximumAttempts: 2, initialDelay: 600, maximumDelay: 600, jitter: 0)
        let result = try await transport.withRetryingEngine(policy, sleep: sleep) { networking in
            let task = Task { await Result { try await networking(URLRequest(url: server.url("/flaky/\(key)/1"))) } }
            var waits = waiting.stream.makeAsyncIterator()
            await waits.next()
            task.cancel()
            return await task.value
        }
        let error = try #require(result.failure as? URLError)
        #expect(error.code == .cancelled)
        #expect(error.localizedDescription.contains("while waiting 600 s before attempt 2"), "\(error.localizedDescription)")
        #expect(server.visits(key) == 1)
    }

    @Test(.timeLimit(.minutes(5)), arguments: TransportKind.configured)
    func theTotalDeadlineCutsARetryWaitShort(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        // The server asks for 600 s, which the policy allows; only the deadline can end the wait.
        var policy = Self.quick
        policy.maximumRetryAfter = 600
        let result = try await transport.withRetryingTransport(policies: Self.policies(policy, totalDeadline: 1)) { retrying in
            await Result { try await retrying.exchange(URLRequest(url: server.url("/flaky/\(key)/1?retry_after=600"))) }
        }
        let error = try #require(result.failure as? URLError)
        #expect(error.code == .timedOut)
        #expect(error.localizedDescription.contains("total deadline of 1 s"), "\(error.localizedDescription)")
        // No second attempt: the wait was what the deadline ended.
        #expect(server.visits(key) <= 1)
    }

    /// An HTTP-date, percent-encoded for a query.
    static func httpDate(_ date: Date) -> String {
        HTTPDateText.format(date).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}

/// A transport's exchange and streaming entry points, with its policies over each.
struct RetryingTransport {
    var exchange: HTTPExchange
    var streaming: StreamingNetworking
}

extension TransportKind {
    /// Runs `body` with a transport of this kind of its own with `policies`, shut down afterwards.
    func withRetryingTransport<T>(policies: Policies, _ body: (RetryingTransport) async throws -> T) async throws -> T {
        switch self {
        case .urlSession:
            let transport = URLSessionTransport(configuration: URLSessionTransport.Configuration(policies: policies))
            let result = await Result { try await body(RetryingTransport(exchange: transport.exchange, streaming: transport.streaming)) }
            await transport.shutdown()
            return try result.get()
        case .curl:
            var configuration = CurlTransport.Configuration()
            configuration.policies = policies
            let transport = try CurlTransport(configuration: configuration)
            let result = await Result { try await body(RetryingTransport(exchange: transport.exchange, streaming: transport.streaming)) }
            await transport.shutdown()
            return try result.get()
        }
    }

    /// Runs `body` with this kind's engine under ``retrying(_:random:sleep:)``, whose waits are
    /// recorded in `waits` and not waited, so a test can see a long `Retry-After` honoured.
    func withRetryingEngine<T>(
        _ policy: RetryPolicy, waits: RecordedWaits, _ body: (@escaping Networking) async throws -> T
    ) async throws -> T {
        try await withRetryingEngine(policy, sleep: { duration in waits.record(duration) }, body)
    }

    /// Runs `body` with this kind's engine under ``retrying(_:random:sleep:)`` waiting with `sleep`.
    func withRetryingEngine<T>(
        _ policy: RetryPolicy, sleep: @escaping @Sendable (Duration) async throws -> Void, _ body: (@escaping Networking) async throws -> T
    ) async throws -> T {
        let layer = retrying(policy, random: { 0 }, sleep: sleep)
        switch self {
        case .urlSession:
            let transport = URLSessionTransport()
            let result = await Result { try await body(layered(Courier.networking(transport.bareEngine.exchange), [layer])) }
            await transport.shutdown()
            return try result.get()
        case .curl:
            let transport = try CurlTransport()
            let result = await Result { try await body(layered(Courier.networking(transport.bareEngine.exchange), [layer])) }
            await transport.shutdown()
            return try result.get()
        }
    }
}

/// The waits a retry layer asked for, in order.
final class RecordedWaits: Sendable {
    private let waits = Mutex<[Duration]>([])

    func record(_ wait: Duration) {
        waits.withLock { $0.append(wait) }
    }

    var all: [Duration] { waits.withLock { $0 } }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
