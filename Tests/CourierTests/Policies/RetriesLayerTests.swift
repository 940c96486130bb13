#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Synchronization
import Testing

/// The retry layer over closure doubles: which requests it sends again, what it removes and
/// the waits it asks for. The transport suite runs it over both engines.
@Suite struct RetriesLayerTests {
    /// An origin that answers each request with the next status of `statuses` (the last one
    /// for ever) and records what it received.
    final class Origin: Sendable {
        private let statuses: [Int]
        private let received = Mutex<[URLRequest]>([])

        init(_ statuses: [Int]) {
            self.statuses = statuses
        }

        var requests: [URLRequest] { received.withLock { $0 } }

        var networking: Networking {
            { request in
                let count = self.received.withLock { received in
                    received.append(request)
                    return received.count
                }
                let status = self.statuses[min(count, self.statuses.count) - 1]
                return (Data(), try httpResponse(for: request, status: status))
            }
        }
    }

    final class Waits: Sendable {
        private let waits = Mutex<[Duration]>([])
        func record(_ wait: Duration) { waits.withLock { $0.append(wait) } }
        var all: [Duration] { waits.withLock { $0 } }
    }

    private static let policy = RetryPolicy(maximumAttempts: 4, initialDelay: 1, multiplier: 2, maximumDelay: 3, jitter: 0.5)

    private static func url() throws -> URL { try #require(URL(string: "http://origin.test/orders")) }

    @Test func theWaitsFollowTheBackoffWithTheInjectedRandomness() async throws {
        let origin = Origin([503, 503, 503, 200])
        let waits = Waits()
        let networking = layered(origin.networking, [retrying(Self.policy, random: { 0.5 }, sleep: { waits.record($0) })])
        let (_, response) = try await networking(URLRequest(url: try Self.url()))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        // 1, 2 and 3 s (capped), each less a quarter: half of the wait, times 0.5, is random.
        #expect(waits.all == [.milliseconds(750), .milliseconds(1500), .milliseconds(2250)])
    }

    @Test func anEndlessRetryAfterThatThePolicyAllowsIsAWaitATaskCanSleep() async throws {
        let waits = Waits()
        var policy = Self.policy
        policy.maximumRetryAfter = .infinity
        let answered = Mutex(0)
        let origin: Networking = { request in
            let count = answered.withLock { $0 += 1; return $0 }
            let headers = ["Retry-After": String(repeating: "9", count: 60)]
            return (Data(), try httpResponse(for: request, status: count == 1 ? 503 : 200, headers: headers))
        }
        let networking = layered(origin, [retrying(policy, random: { 0 }, sleep: { waits.record($0) })])
        let (_, response) = try await networking(URLRequest(url: try Self.url()))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(waits.all == [.milliseconds(Int64(URLRequest.maximumTimeoutInterval * 1000))])
    }

    @Test func aRequestThatOptsInIsRetriedWhateverItsMethodAndTheFieldIsRemoved() async throws {
        let origin = Origin([503, 201])
        let networking = layered(origin.networking, [retrying(Self.policy, random: { 0 }, sleep: { _ in })])
        let client = APIClient(baseURL: try Self.url(), networking: networking)
        let request = Request<Data>("orders", method: .post(.text("one"))).retryingAnyMethod()
        #expect(request.headers[RetryPolicy.requestField] == "always")
        _ = try await client.send(request)
        #expect(origin.requests.count == 2)
        #expect(origin.requests.allSatisfy { $0.value(forHTTPHeaderField: RetryPolicy.requestField) == nil })
        #expect(origin.requests.allSatisfy { $0.httpBody == Data("one".utf8) })
    }

    @Test func aRequestThatOptsOutIsSentOnce() async throws {
        let origin = Origin([503, 200])
        let networking = layered(origin.networking, [retrying(Self.policy, random: { 0 }, sleep: { _ in })])
        let client = APIClient(baseURL: try Self.url(), networking: networking)
        await #expect(throws: APIError.self) { try await client.send(Request<Data>("orders").notRetrying()) }
        #expect(origin.requests.count == 1)
        #expect(origin.requests.first?.value(forHTTPHeaderField: RetryPolicy.requestField) == nil)
    }

    @Test func aBodyStreamIsNeverRetried() async throws {
        let origin = Origin([503, 200])
        let networking = layered(origin.networking, [retrying(Self.policy, random: { 0 }, sleep: { _ in })])
        var request = URLRequest(url: try Self.url())
        request.httpMethod = "PUT"
        request.httpBodyStream = InputStream(data: Data("once".utf8))
        let (_, response) = try await networking(request)
        #expect((response as? HTTPURLResponse)?.statusCode == 503)
        #expect(origin.requests.count == 1)
    }

    @Test func anErrorThatIsNotAURLErrorIsNotRetried() async throws {
        let attempts = Mutex(0)
        let failing: Networking = { _ in
            attempts.withLock { $0 += 1 }
            throw CocoaError(.fileReadNoSuchFile)
        }
        let networking = layered(failing, [retrying(Self.policy, random: { 0 }, sleep: { _ in })])
        await #expect(throws: CocoaError.self) { try await networking(URLRequest(url: try Self.url())) }
        #expect(attempts.withLock { $0 } == 1)
    }

    @Test func anErrorAfterRetriesSaysHowManyAttemptsWereMadeAndOneWithoutRetriesDoesNot() async throws {
        let attempts = Mutex(0)
        let refusing: Networking = { request in
            attempts.withLock { $0 += 1 }
            throw URLError(.cannotConnectToHost, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])
        }
        let networking = layered(refusing, [retrying(Self.policy, random: { 0 }, sleep: { _ in })])
        let error = try #require(await #expect(throws: URLError.self) { try await networking(URLRequest(url: try Self.url())) })
        #expect(attempts.withLock { $0 } == 4)
        #expect(error.localizedDescription == "could not connect to the server, after 4 attempts (GET http://origin.test/orders)")

        let once = layered(refusing, [retrying(.none)])
        let single = try #require(await #expect(throws: URLError.self) { try await once(URLRequest(url: try Self.url())) })
        #expect(!single.localizedDescription.contains("attempts"))
    }

    @Test(.timeLimit(.minutes(5))) func aCancelledTaskStopsWaitingWithCancelled() async throws {
        let origin = Origin([503])
        // The real sleep, for a wait no test sits through.
        let networking = layered(origin.networking, [retrying(RetryPolicy(maximumAttempts: 2, initialDelay: 600, maximumDelay: 600))])
        let url = try Self.url()
        let task = Task { try await networking(URLRequest(url: url)) }
        while origin.requests.isEmpty { await Task.yield() }
        task.cancel()
        let error = try #require(await #expect(throws: URLError.self) { try await task.value })
        #expect(error.code == .cancelled)
        #expect(origin.requests.count == 1)
    }
}
