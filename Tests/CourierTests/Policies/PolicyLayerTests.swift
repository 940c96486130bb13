#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// The shared layers over closure doubles: what each does to requests, responses and errors,
/// without a socket. The transport suite runs the same layers over both engines.
@Suite struct PolicyLayerTests {
    @Test func redirectsAreFollowedHopByHopThroughTheLayersBelow() async throws {
        let server = RecordingOrigin([
            "/a": (302, ["Location": "/b"]),
            "/b": (307, ["Location": "http://other.test:81/c"]),
            "/c": (200, [:]),
        ])
        let hops = Mutex(0)
        let counting: NetworkingLayer = { send in { request in hops.withLock { $0 += 1 }; return try await send(request) } }
        let networking = layered(server.networking, [followingRedirects(), counting])
        var request = URLRequest(url: try #require(URL(string: "http://a.test/a")))
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        let (_, response) = try await networking(request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(response.url?.absoluteString == "http://other.test:81/c")
        #expect(hops.withLock { $0 } == 3)
        let sent = server.requests
        #expect(sent.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer t", "Bearer t", nil])
    }

    @Test(arguments: [false, true])
    func aCookieSetOnARedirectIsSentOnTheNextHopAndNotToAnotherSite(streaming: Bool) async throws {
        let server = RecordingOrigin([
            "/login": (302, ["Location": "/home", "Set-Cookie": "session=abc; Path=/"]),
            "/home": (302, ["Location": "http://other.test/away"]),
            "/away": (200, [:]),
        ])
        var policies = Policies()
        policies.cookies = CookieStore()
        let request = URLRequest(url: try #require(URL(string: "http://a.test/login")))
        if streaming {
            _ = try await policies.apply(to: server.streaming)(request, nil)
        } else {
            _ = try await policies.apply(to: server.networking)(request)
        }
        let sent = server.requests
        #expect(sent.map { $0.value(forHTTPHeaderField: "Cookie") } == [nil, "session=abc", nil])
    }

    @Test func aRedirectLoopEndsWithTheLimitInWords() async throws {
        let server = RecordingOrigin(["/loop": (302, ["Location": "/loop"])])
        let networking = layered(server.networking, [describingErrors(), followingRedirects(RedirectPolicy(maximumRedirects: 4))])
        let url = try #require(URL(string: "http://a.test/loop"))
        await #expect {
            _ = try await networking(URLRequest(url: url))
        } throws: { error in
            guard let error = error as? URLError else { return false }
            return error.code == .httpTooManyRedirects
                && error.localizedDescription == "too many redirects: stopped after 4 redirects (the limit) (GET http://a.test/loop)"
        }
        #expect(server.requests.count == 5)
    }

    /// The exchange answers only after ``TestRun/serverHold``, so a deadline that did not fire
    /// lets its 200 through, and one that fired without cancelling leaves `cancelled` false.
    @Test(.timeLimit(.minutes(10))) func theTotalDeadlineCancelsTheExchangeInFlight() async throws {
        let cancelled = Mutex(false)
        let slow: Networking = { request in
            do {
                try await Task.sleep(for: TestRun.serverHold)
            } catch {
                cancelled.withLock { $0 = true }
                throw URLError(.cancelled)
            }
            return (Data(), try httpResponse(for: request, status: 200))
        }
        let networking = layered(slow, [describingErrors(), totalDeadline(0.2)])
        let started = ContinuousClock.now
        await #expect {
            _ = try await networking(URLRequest(url: try #require(URL(string: "http://a.test/slow"))))
        } throws: { error in
            guard let error = error as? URLError else { return false }
            return error.code == .timedOut
                && error.localizedDescription == "timed out: the total deadline of 0.2 s passed before the response was complete (GET http://a.test/slow)"
        }
        #expect(cancelled.withLock { $0 })
        #expect(ContinuousClock.now - started >= .milliseconds(200), "the deadline fired early")
    }

    @Test func aResponseWithinTheDeadlineIsReturnedAsItIs() async throws {
        let networking = totalDeadline(30)(stub(status: 201, body: "made"))
        let (data, response) = try await networking(URLRequest(url: try #require(URL(string: "http://a.test/"))))
        #expect(data == Data("made".utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
    }

    @Test(arguments: [-1, .nan, .infinity] as [TimeInterval])
    func unusableDeadlinesMeanNoDeadline(_ seconds: TimeInterval) async throws {
        let networking = totalDeadline(seconds)(stub(status: 200))
        _ = try await networking(URLRequest(url: try #require(URL(string: "http://a.test/"))))
    }

    @Test(arguments: [
        ("Content-Length", "2, 3", "Content-Length is given more than once with different values (2, 3)"),
        ("X-Note", "a\rb", "the value of X-Note holds a bare CR"),
        ("X-Note", "a\u{0}b", "the value of X-Note holds a NUL byte"),
        ("X-Note", "a\nb", "the value of X-Note holds a line feed"),
    ])
    func malformedFieldsAreRefused(name: String, value: String, problem: String) async throws {
        let networking = layered(stub(status: 200, headers: [name: value]), [describingErrors(), validatingResponses()])
        await #expect {
            _ = try await networking(URLRequest(url: try #require(URL(string: "http://a.test/v"))))
        } throws: { error in
            guard let error = error as? URLError else { return false }
            return error.code == .badServerResponse
                && error.localizedDescription == "the server's response is not valid HTTP: \(problem) (GET http://a.test/v)"
        }
    }

    @Test func repeatsOfOneContentLengthAndTabsAreAccepted() async throws {
        let networking = validatingResponses()(stub(status: 200, headers: ["Content-Length": "2, 2", "X-Tab": "a\tb"]))
        let (_, response) = try await networking(URLRequest(url: try #require(URL(string: "http://a.test/"))))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func errorsAreDescribedOnceWithTheEnginesWordsKept() async throws {
        let failing: Networking = { request in
            throw URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: "transfer closed with 97 bytes remaining to read", NSURLErrorFailingURLErrorKey: request.url as Any])
        }
        let networking = layered(failing, [describingErrors(), describingErrors()])
        var request = URLRequest(url: try #require(URL(string: "http://a.test/short")))
        request.httpMethod = "PUT"
        await #expect {
            _ = try await networking(request)
        } throws: { error in
            (error as? URLError)?.localizedDescription
                == "the connection was lost before the response was complete: transfer closed with 97 bytes remaining to read (PUT http://a.test/short)"
        }
    }

    @Test func aTimeoutWithoutTheEnginesWordsNamesTheRequestsTimeout() async throws {
        let networking = describingErrors()({ _ in throw URLError(.timedOut) })
        var request = URLRequest(url: try #require(URL(string: "http://a.test/never")))
        request.timeoutInterval = 1.5
        await #expect {
            _ = try await networking(request)
        } throws: { error in
            (error as? URLError)?.localizedDescription == "timed out: no data received or sent for 1.5 s (GET http://a.test/never)"
        }
    }

    @Test func theDefaultPoliciesStackInTheDocumentedOrder() async throws {
        var policies = Policies()
        // Default fields, error descriptions, redirects (which remove the retry field while
        // retries are off) and validation.
        #expect(policies.layers.count == 4)
        policies.totalDeadline = 5
        #expect(policies.layers.count == 5)
        policies.cookies = CookieStore()
        #expect(policies.layers.count == 6)
        policies.retries = .standard
        #expect(policies.layers.count == 7)
        #expect(policies != Policies())
    }

    /// With retries off there is no retry layer, and the field it removes still never reaches
    /// the engine, in any case of its name, even when a call layer adds it.
    @Test(arguments: ["Courier-Retry", "courier-retry"])
    func theRetryFieldIsRemovedWhenRetriesAreOff(name: String) async throws {
        let sent = Mutex<[URLRequest]>([])
        let engine: Networking = { request in
            sent.withLock { $0.append(request) }
            return (Data(), try httpResponse(for: request, status: 200))
        }
        var policies = Policies()
        policies.callLayers = [RetryFieldSetter(name: name)]
        let networking = policies.apply(to: engine)
        var request = URLRequest(url: try #require(URL(string: "http://a.test/")))
        request.setValue("x", forHTTPHeaderField: "X-Kept")
        _ = try await networking(request)
        _ = try await networking(URLRequest(url: try #require(URL(string: "http://a.test/"))))
        let requests = sent.withLock { $0 }
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.value(forHTTPHeaderField: RetryPolicy.requestField) == nil })
        #expect(requests.first?.value(forHTTPHeaderField: "X-Kept") == "x")
    }
}

/// A call layer that asks for retries on every request it passes on.
private struct RetryFieldSetter: HTTPExchangeLayer {
    let name: String

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        var request = request
        request.setValue("always", forHTTPHeaderField: name)
        return try await next(request)
    }
}
