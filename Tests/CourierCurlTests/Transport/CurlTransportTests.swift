#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
@testable import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCurl

@Suite("CurlTransport against CourierTestServer")
struct CurlTransportTests {
    // MARK: Methods and bodies

    @Test func getReturnsStatusHeadersBodyAndURL() async throws {
        try await withCurlTransport { server, transport in
            let url = server.url("/get?a=1&a=2")
            let (data, response) = try await transport.http(request(url))
            #expect(response.statusCode == 200)
            #expect(response.url == url)
            #expect(response.value(forHTTPHeaderField: "content-type")?.contains("json") == true)
            let echo = try JSONDecoder().decode(Echo.self, from: data)
            #expect(echo.method == "GET")
            #expect(echo.args["a"] == ["1", "2"])
        }
    }

    @Test func requestHeadersAreThoseURLSessionSends() async throws {
        try await withCurlTransport { server, transport in
            let echo = try await transport.echo(request(server.url("/get"), headers: ["X-Custom": "v", "X-Empty": ""]))
            #expect(echo.header("X-Custom") == "v")
            #expect(echo.header("X-Empty") == "")
            #expect(echo.header("Accept") == "*/*")
            #expect(echo.header("Accept-Encoding") == Curl.features.acceptEncoding)
            #expect(echo.header("User-Agent") == DefaultUserAgent.value)
            #expect(echo.header("Connection") == "keep-alive")
            #expect(echo.header("Expect") == nil)
        }
    }

    @Test func headReadsNoBody() async throws {
        try await withCurlTransport { server, transport in
            let (data, response) = try await transport.http(request(server.url("/bytes/1000"), method: "HEAD"))
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Length") == "1000")
            #expect(data.isEmpty)
        }
    }

    @Test(arguments: ["POST", "PUT", "PATCH", "DELETE", "PURGE"])
    func methodsSendTheirBody(method: String) async throws {
        try await withCurlTransport { server, transport in
            let echo = try await transport.echo(request(server.url("/anything"), method: method, body: "hello"))
            #expect(echo.method == method)
            #expect(echo.bodyText == "hello")
            #expect(echo.header("Content-Length") == "5")
            #expect(echo.header("Expect") == nil)
            let contentType = echo.header("Content-Type")
            #expect(method == "POST" ? contentType == "application/x-www-form-urlencoded" : contentType == nil)
        }
    }

    /// Handles are reused without `curl_easy_reset`; every per-request option must be set
    /// again, or a HEAD, a body or a custom method would leak into the next request.
    @Test func aReusedHandleCarriesNothingOverFromItsLastRequest() async throws {
        try await withCurlTransport { server, transport in
            let url = server.url("/anything")
            let sequence: [(method: String, body: String?, headers: [String: String])] = [
                ("PURGE", "one", ["X-First": "1"]),
                ("GET", nil, [:]),
                ("HEAD", nil, [:]),
                ("GET", nil, [:]),
                ("POST", "two", [:]),
                ("DELETE", nil, [:]),
                ("GET", nil, ["X-Last": "2"]),
                ("POST", "", [:]),
                ("HEAD", nil, [:]),
                ("PUT", "three", [:]),
                ("GET", nil, [:]),
            ]
            for (index, step) in sequence.enumerated() {
                let (data, response) = try await transport.http(
                    request(url, method: step.method, body: step.body, headers: step.headers)
                )
                #expect(response.statusCode == 200, "step \(index)")
                let received = try #require(server.lastRequest, "step \(index)")
                #expect(received.method == step.method, "step \(index)")
                #expect(String(decoding: received.body, as: UTF8.self) == step.body ?? "", "step \(index)")
                #expect(received.value(for: "X-First") == step.headers["X-First"], "step \(index)")
                #expect(received.value(for: "X-Last") == step.headers["X-Last"], "step \(index)")
                let sentLength = received.value(for: "Content-Length")
                #expect(sentLength == (["GET", "HEAD"].contains(step.method) ? nil : String(step.body?.utf8.count ?? 0)), "step \(index)")
                let formLabelled = step.method == "POST" && step.body?.isEmpty == false
                #expect((received.value(for: "Content-Type") != nil) == formLabelled, "step \(index)")
                #expect(data.isEmpty == (step.method == "HEAD"), "step \(index)")
            }
            // One connection and one handle served the whole sequence.
            #expect(server.acceptedConnectionCount == 1)
            #expect(transport.statistics.liveHandles == 1)
        }
    }

    /// A reused connection that the server closes without answering makes libcurl send the
    /// request again on a fresh one, rewinding the body through the seek callback: the body
    /// must arrive whole the second time too.
    @Test func aBodyIsSentWholeAgainWhenAReusedConnectionDies() async throws {
        try await withCurlTransport { server, transport in
            _ = try await transport.http(request(server.url("/get")))
            let body = String(repeating: "0123456789", count: 20_000)
            let before = server.requestCount
            await #expect(throws: URLError.self) {
                _ = try await transport.http(request(server.url("/close"), method: "POST", body: body))
            }
            #expect(server.requestCount - before == 2)
            #expect(server.lastRequest.map { String(decoding: $0.body, as: UTF8.self) } == body)
        }
    }

    /// The same, with a stream body: it cannot be rewound, so the request fails with URLSession's
    /// code for a stream it cannot send again, instead of going out a second time empty.
    @Test func aStreamBodyIsNotSentAgainWhenAReusedConnectionDies() async throws {
        try await withCurlTransport { server, transport in
            _ = try await transport.http(request(server.url("/get")))
            var streamed = request(server.url("/close"), method: "POST")
            streamed.httpBodyStream = InputStream(data: Data(repeating: 0x61, count: 200_000))
            let before = server.requestCount
            let code = await urlErrorCode { _ = try await transport.http(streamed) }
            #expect(code == .requestBodyStreamExhausted)
            #expect(server.requestCount - before == 1)
        }
    }

    @Test func aBodyStreamThatFailsFailsTheRequest() async throws {
        try await withCurlTransport { server, transport in
            var broken = request(server.url("/anything"), method: "PUT")
            broken.httpBodyStream = InputStream(fileAtPath: "/nonexistent/courier-body")
            do {
                _ = try await transport.http(broken)
                Issue.record("expected the request to fail")
            } catch let error as URLError {
                #expect(error.code == .unknown)
                let message = CurlError.underlying(of: error)?.message ?? ""
                #expect(message.hasPrefix("reading the request body stream failed"), "\(message)")
            }
        }
    }

    @Test func largeBodiesAreSentWithoutExpectContinue() async throws {
        try await withCurlTransport { server, transport in
            let body = String(repeating: "x", count: 2_000_000)
            let echo = try await transport.echo(request(server.url("/anything"), method: "PUT", body: body))
            #expect(echo.bodyText?.count == body.count)
            #expect(echo.header("Expect") == nil)
        }
    }

    @Test(arguments: [200, 201, 204, 304, 400, 401, 404, 500, 503])
    func statusCodesAreResponsesNotErrors(code: Int) async throws {
        try await withCurlTransport { server, transport in
            let (_, response) = try await transport.http(request(server.url("/status/\(code)")))
            #expect(response.statusCode == code)
        }
    }

    @Test func repeatedResponseHeadersAreJoinedWithCommaSpace() async throws {
        try await withCurlTransport { server, transport in
            let (_, response) = try await transport.http(request(server.url("/response-headers?X-Multi=a&X-Multi=b&X-One=c")))
            #expect(response.value(forHTTPHeaderField: "X-Multi") == "a, b")
            #expect(response.value(forHTTPHeaderField: "x-one") == "c")
        }
    }

    @Test(arguments: ["/bytes/100000", "/stream-bytes/100000?chunk_size=777", "/bytes/0"])
    func bodiesArriveWhole(path: String) async throws {
        try await withCurlTransport { server, transport in
            let count = Int(path.split(separator: "/")[1].split(separator: "?")[0]) ?? -1
            let (data, _) = try await transport.http(request(server.url(path)))
            #expect(data == DeterministicBytes.data(count: count, seed: 0))
        }
    }

    @Test(arguments: ["/gzip", "/deflate"])
    func compressedBodiesAreDecoded(path: String) async throws {
        try await withCurlTransport { server, transport in
            let (data, response) = try await transport.http(request(server.url(path)))
            #expect(response.value(forHTTPHeaderField: "Content-Encoding") != nil)
            #expect(try JSONDecoder().decode(Echo.self, from: data).path == path)
        }
    }

    // MARK: Redirects

    @Test func redirectsAreFollowedToTheFinalURL() async throws {
        try await withCurlTransport { server, transport in
            for path in ["/redirect/3", "/absolute-redirect/3", "/status/301", "/status/308"] {
                let (_, response) = try await transport.http(request(server.url(path)))
                #expect(response.statusCode == 200)
                #expect(response.url == server.url("/get"))
            }
        }
    }

    @Test func redirectLimitEndsInTooManyRedirects() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.policies.redirects.maximumRedirects = 2
        try await withCurlTransport(configuration) { server, transport in
            let (_, twoHops) = try await transport.http(request(server.url("/redirect/2")))
            #expect(twoHops.statusCode == 200)
            let code = await urlErrorCode { _ = try await transport.data(for: request(server.url("/redirect/3"))) }
            #expect(code == .httpTooManyRedirects)
        }
    }

    @Test func aRedirectLimitOfZeroReturnsTheRedirectItself() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.policies.redirects.maximumRedirects = 0
        try await withCurlTransport(configuration) { server, transport in
            let (_, response) = try await transport.http(request(server.url("/redirect/1")))
            #expect(response.statusCode == 302)
            #expect(response.value(forHTTPHeaderField: "Location") == "/get")
            #expect(server.requestCount == 1)
        }
    }

    @Test func seeOtherTurnsPostIntoGetAnd307KeepsIt() async throws {
        try await withCurlTransport { server, transport in
            let to = queryValue(server.url("/anything").absoluteString)
            let seeOther = try await transport.echo(request(server.url("/redirect-to?url=\(to)&status_code=303"), method: "POST", body: "b"))
            #expect(seeOther.method == "GET")
            #expect(seeOther.bodyText == "")
            let temporary = try await transport.echo(request(server.url("/redirect-to?url=\(to)&status_code=307"), method: "POST", body: "b"))
            #expect(temporary.method == "POST")
            #expect(temporary.bodyText == "b")
        }
    }

    @Test func credentialsAreDroppedAcrossOriginsForTheRestOfTheChain() async throws {
        try await withCurlTransport { first, transport in
            let second = try await TestServer.start()
            // first → second → back to first: Authorization must not reappear on the last hop.
            let last = first.url("/anything/last")
            let hop2 = second.url("/redirect-to?url=\(queryValue(last.absoluteString))")
            let hop1 = first.url("/redirect-to?url=\(queryValue(hop2.absoluteString))")
            let echo = try await transport.echo(request(hop1, headers: ["Authorization": "Bearer secret", "Cookie": "c=1", "X-Keep": "k"]))
            #expect(echo.path == "/anything/last")
            #expect(echo.header("Authorization") == nil)
            #expect(echo.header("Cookie") == nil)
            #expect(echo.header("X-Keep") == "k")
            #expect(second.lastRequest?.value(for: "Authorization") == nil)
            try await second.shutdown()
        }
    }

    @Test func fileLocationsAreNotFollowed() async throws {
        try await withCurlTransport { server, transport in
            let (_, response) = try await transport.http(request(server.url("/redirect-to?url=\(queryValue("file:///etc/passwd"))")))
            #expect(response.statusCode == 302)
        }
    }

    // MARK: Failures

    /// The server never answers, so only the client's own idle timeout can end the request: a
    /// client that waited for the server hangs into the time limit instead of failing here.
    @Test(.timeLimit(.minutes(5))) func idleTimeoutIsTimedOut() async throws {
        try await withCurlTransport { server, transport in
            var slow = request(server.url("/never"))
            slow.timeoutInterval = 1
            let started = ContinuousClock.now
            let code = await urlErrorCode { _ = try await transport.data(for: slow) }
            #expect(code == .timedOut)
            // Not early: the silence had lasted the whole second (less a timer's granularity).
            #expect(ContinuousClock.now - started >= .milliseconds(900))
        }
    }

    /// Against a server that never answers, so the deadline is the only way out, however late a
    /// loaded machine runs the engine's thread.
    @Test(.timeLimit(.minutes(5))) func totalDeadlineIsTimedOut() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.policies.totalDeadline = 0.5
        try await withCurlTransport(configuration) { server, transport in
            let code = await urlErrorCode { _ = try await transport.data(for: request(server.url("/never"))) }
            #expect(code == .timedOut)
        }
    }

    @Test func refusedPortIsCannotConnectToHost() async throws {
        try await withCurlTransport { _, transport in
            let refusing = try await RefusingPort.open()
            let code = await urlErrorCode { _ = try await transport.data(for: request(refusing.baseURL)) }
            #expect(code == .cannotConnectToHost)
            try await refusing.close()
        }
    }

    @Test func unsupportedSchemesAreRefusedBeforeSending() async throws {
        try await withCurlTransport { _, transport in
            let code = await urlErrorCode { _ = try await transport.data(for: request(URL(string: "file:///etc/passwd")!)) }
            #expect(code == .unsupportedURL)
        }
    }

    @Test func closeAndTruncateMatchURLSessionOnThisPlatform() async throws {
        try await withCurlTransport { server, transport in
            let session = URLSession(configuration: .ephemeral)
            for path in ["/close", "/truncate/1000"] {
                let curl = await urlErrorCode { _ = try await transport.data(for: request(server.url(path))) }
                let urlSession = await urlErrorCode { _ = try await session.data(for: request(server.url(path))) }
                // FoundationNetworking reports a cut-short body as .unknown; Darwin and
                // CurlTransport say .networkConnectionLost (see CurlError+URLError.swift).
                let expected = urlSession == .unknown ? .networkConnectionLost : urlSession
                #expect(curl == expected, "\(path): URLSession \(String(describing: urlSession))")
            }
            session.invalidateAndCancel()
        }
    }

    @Test func controlCharactersInHeadersAreRefusedBeforeSending() async throws {
        try await withCurlTransport { server, transport in
            // FoundationNetworking's URLRequest silently drops a value holding CR or LF, so the
            // characters that reach a transport are the other controls and non-token names.
            await #expect(throws: RequestError.self) {
                _ = try await transport.data(for: request(server.url("/get"), headers: ["X-Bad": "a\u{1}b"]))
            }
            await #expect(throws: RequestError.self) {
                _ = try await transport.data(for: request(server.url("/get"), headers: ["Bad Name": "v"]))
            }
            #expect(server.requestCount == 0)
        }
    }

    @Test func responseSizeLimitCountsDecodedBytes() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.policies.maximumResponseBytes = 100
        try await withCurlTransport(configuration) { server, transport in
            for path in ["/bytes/1000", "/stream-bytes/1000", "/gzip"] {
                do {
                    _ = try await transport.data(for: request(server.url(path)))
                    Issue.record("\(path) passed the limit")
                } catch let error as URLError {
                    #expect(error.code == .dataLengthExceedsMaximum)
                    #expect(CurlError.underlying(of: error)?.kind == .responseTooLarge)
                }
            }
            let (atLimit, _) = try await transport.http(request(server.url("/bytes/100")))
            #expect(atLimit.count == 100)
        }
    }

    @Test func headerSizeLimitStopsTheExchange() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.policies.maximumHeaderBytes = 300
        try await withCurlTransport(configuration) { server, transport in
            let big = String(repeating: "v", count: 400)
            do {
                _ = try await transport.data(for: request(server.url("/response-headers?X-Big=\(big)")))
                Issue.record("headers passed the limit")
            } catch let error as URLError {
                #expect(error.code == .dataLengthExceedsMaximum)
                #expect(CurlError.underlying(of: error)?.kind == .headersTooLarge)
            }
        }
    }

    // MARK: Cancellation, shutdown, connections

    /// The server never answers and no timeout is near, so only the cancel can end the
    /// transfer: a transport that ignored it hangs into the time limit.
    @Test(.timeLimit(.minutes(5))) func cancellationThrowsCancelledAtOnceAndFreesTheHandle() async throws {
        try await withCurlTransport { server, transport in
            var never = request(server.url("/never"))
            never.timeoutInterval = TestRun.serverHold / .seconds(1)
            let task = Task { try await transport.data(for: never) }
            // Cancelled once it runs, so it is the transfer that stops, not a request not yet sent.
            #expect(await pollUntil { transport.statistics.running == 1 })
            task.cancel()
            let code = await urlErrorCode { _ = try await task.value }
            #expect(code == .cancelled)
            #expect(transport.statistics.running == 0)
        }
    }

    @Test func cancellingManyInFlightReturnsEveryHandle() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.maximumConnectionsPerHost = 8
        try await withCurlTransport(configuration) { server, transport in
            // Never answered, so however late the cancels come, no request can end any other way.
            let tasks = (0..<200).map { _ in Task { try await transport.data(for: request(server.url("/never"))) } }
            #expect(await pollUntil { transport.statistics.running == 8 })
            for task in tasks { task.cancel() }
            for task in tasks {
                #expect(await urlErrorCode { _ = try await task.value } == .cancelled)
            }
            // A handle that never came back leaves the pool short, and the poll gives up.
            let returned = await pollUntil {
                let statistics = transport.statistics
                return statistics.running == 0 && statistics.idleHandles == statistics.liveHandles
            }
            #expect(returned, "\(transport.statistics)")
        }
    }

    @Test(.timeLimit(.minutes(5))) func shutdownFailsRequestsInFlightWithATypedError() async throws {
        try await withCurlTransport { server, transport in
            let task = Task { try await transport.data(for: request(server.url("/never"))) }
            #expect(await pollUntil { transport.statistics.running == 1 })
            await transport.shutdown()
            await #expect(throws: CurlError.transportShutDown) { _ = try await task.value }
            await #expect(throws: CurlError.transportShutDown) { _ = try await transport.data(for: request(server.url("/get"))) }
        }
    }

    @Test func connectionsAreReusedWithinThePerHostLimit() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.maximumConnectionsPerHost = 4
        try await withCurlTransport(configuration) { server, transport in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<400 {
                    group.addTask { try await transport.http(request(server.url("/get"))).1.statusCode }
                }
                for try await status in group { #expect(status == 200) }
            }
            #expect(server.acceptedConnectionCount <= 4)
        }
    }

    /// Beyond the per-host limit, requests wait in the engine rather than in libcurl: each one
    /// libcurl holds is an easy handle, so the handles made show where they waited.
    @Test func aBurstBeyondThePerHostLimitWaitsWithoutHandles() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.maximumConnectionsPerHost = 4
        try await withCurlTransport(configuration) { server, transport in
            try await withThrowingTaskGroup(of: Data.self) { group in
                for index in 0..<300 {
                    group.addTask { try await transport.http(request(server.url("/bytes/\(index)?seed=\(index)"))).0 }
                }
                var sizes = Set<Int>()
                for try await data in group { sizes.insert(data.count) }
                #expect(sizes == Set(0..<300))
            }
            #expect(transport.statistics.liveHandles <= 4)
            #expect(transport.statistics.waiting == 0)
            #expect(server.acceptedConnectionCount <= 4)
        }
    }

    /// Waiting for a connection is silence: a request queued behind slow ones times out at its
    /// own idle timeout, counted from when it was sent, not from when a connection freed up.
    @Test(.timeLimit(.minutes(5))) func aRequestWaitingForAConnectionTimesOutWhileItWaits() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.maximumConnectionsPerHost = 1
        try await withCurlTransport(configuration) { server, transport in
            // The slow request holds the one connection until the test cancels it, so a request
            // that could time out only once the connection freed never ends: the wait below
            // gives up at the hang limit instead of returning `.timedOut`.
            let slow = Task { try await transport.http(request(server.url("/never"))) }
            #expect(await pollUntil { transport.statistics.running == 1 })
            var waiting = request(server.url("/get"))
            waiting.timeoutInterval = 1
            let started = ContinuousClock.now
            let code = try await awaitWithin { [waiting] in await urlErrorCode { _ = try await transport.http(waiting) } }
            #expect(code == .timedOut)
            #expect(ContinuousClock.now - started >= .milliseconds(900), "it timed out before its second of silence")
            // At most the slow one: the server may not have read even that on a loaded machine.
            #expect(server.requestCount <= 1, "a request that timed out while it waited was sent")
            slow.cancel()
            #expect(await urlErrorCode { _ = try await slow.value } == .cancelled)
        }
    }

    /// The time spent waiting still counts once the request runs: 5 s in the queue and then a
    /// server silent for 5 s pass a 6 s idle timeout, though neither alone does. Counted from
    /// when the request ran, the timeout would let the server's answer in (5 s < 6 s); counted
    /// from when it was sent, it fires about 1 s after the request runs, 4 s before the answer,
    /// a margin no loaded machine eats. Should the machine stretch the 5 s past 6, the request
    /// times out while it still waits, which is `.timedOut` too. The request holding the
    /// connection lasts until the test cancels it, so a test task that is scheduled late (a
    /// loaded machine, a sanitizer) cannot miss the moment it runs.
    @Test(.timeLimit(.minutes(5))) func theWaitCountsTowardsTheIdleTimeoutOnceTheRequestRuns() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.maximumConnectionsPerHost = 1
        try await withCurlTransport(configuration) { server, transport in
            let holding = Task { try await transport.http(request(server.url("/never"))) }
            #expect(await pollUntil { transport.statistics.running == 1 })
            var queued = request(server.url("/delay/5?queued"))
            queued.timeoutInterval = 6
            let waiting = Task { await urlErrorCode { _ = try await transport.http(queued) } }
            #expect(await pollUntil { transport.statistics.waiting == 1 })
            try await Task.sleep(for: .seconds(5))
            holding.cancel()
            #expect(await waiting.value == .timedOut)
            #expect(await urlErrorCode { _ = try await holding.value } == .cancelled)
        }
    }

    @Test(.timeLimit(.minutes(5))) func cancellingAWaitingRequestLeavesTheOthersToRun() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.maximumConnectionsPerHost = 1
        try await withCurlTransport(configuration) { server, transport in
            // Holds the one connection until it is cancelled.
            let blocking = Task { try await transport.http(request(server.url("/never"))) }
            #expect(await pollUntil { transport.statistics.running == 1 })
            // Counted per key by the server, since the order in which it reads the requests of
            // two connections is not the order they were sent in.
            let cancelled = Task { try await transport.http(request(server.url("/flaky/queue-cancelled/0"))) }
            let after = Task { try await transport.http(request(server.url("/flaky/queue-after/0"))) }
            #expect(await pollUntil { transport.statistics.waiting == 2 })
            cancelled.cancel()
            #expect(await urlErrorCode { _ = try await cancelled.value } == .cancelled)
            #expect(transport.statistics.running == 1)
            blocking.cancel()
            #expect(await urlErrorCode { _ = try await blocking.value } == .cancelled)
            let (_, afterResponse) = try await after.value
            #expect(afterResponse.statusCode == 200)
            #expect(server.visits("queue-after") == 1)
            #expect(server.visits("queue-cancelled") == 0, "a request cancelled while waiting is never sent")
            #expect(await pollUntil { transport.statistics.waiting == 0 && transport.statistics.running == 0 })
        }
    }

    @Test func transportsCreatedAndDroppedInALoopShutDown() async throws {
        let server = try await TestServer.start()
        for _ in 0..<50 {
            let transport = try CurlTransport()
            _ = try await transport.data(for: request(server.url("/get")))
            await transport.shutdown()
            #expect(transport.statistics.isTerminated)
        }
        try await server.shutdown()
    }

    /// Submitters wake the curl thread after releasing the inbox's lock, so a shutdown can
    /// close the inbox while a wake-up is still on its way: the thread must not clean up the
    /// multi handle under it, and every request must end, answered or refused.
    @Test func submissionsRacingAShutdownAllEnd() async throws {
        let server = try await TestServer.start()
        for round in 0..<20 {
            let transport = try CurlTransport()
            let senders = (0..<8).map { _ in
                Task { () -> (any Error)? in
                    while true {
                        do {
                            _ = try await transport.data(for: request(server.url("/get")))
                        } catch let error as CurlError where error == .transportShutDown {
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(round % 5))
            await transport.shutdown()
            for sender in senders {
                let unexpected = await sender.value
                #expect(unexpected == nil, "\(unexpected.map { "\($0)" } ?? "")")
            }
            #expect(transport.statistics.isTerminated)
        }
        try await server.shutdown()
    }
}

@Suite("CurlTransport under load and cancellation")
struct CurlTransportHardeningTests {
    @Test(.timeLimit(.minutes(5))) func cancellingFiveHundredInFlightReturnsEveryHandleToThePool() async throws {
        try await withCurlTransport { server, transport in
            let tasks = (0..<500).map { index in
                Task { try await transport.data(for: request(server.url("/never?i=\(index)"))) }
            }
            // 6 transfers run on connections, the rest wait in the engine for one of them to end.
            let started = await pollUntil {
                let statistics = transport.statistics
                return statistics.running == 6 && statistics.waiting == 494
            }
            #expect(started, "\(transport.statistics)")
            for task in tasks { task.cancel() }
            for task in tasks {
                #expect(await urlErrorCode { _ = try await task.value } == .cancelled)
            }
            let returned = await pollUntil {
                let statistics = transport.statistics
                return statistics.running == 0 && statistics.idleHandles == statistics.liveHandles
            }
            #expect(returned, "\(transport.statistics)")
            // The pool keeps at most its idle maximum; the other handles were cleaned up.
            #expect(transport.statistics.liveHandles <= max(16, transport.configuration.maximumConnectionsPerHost * 4))
        }
    }

    @Test func aSmallerHeaderCapStopsTwoThousandHeaders() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.policies.maximumHeaderBytes = 8 << 10
        try await withCurlTransport(configuration) { server, transport in
            do {
                _ = try await transport.data(for: request(server.url("/many-headers/2000")))
                Issue.record("2,000 headers passed an 8 KiB cap")
            } catch let error as URLError {
                #expect(error.code == .dataLengthExceedsMaximum)
                #expect(CurlError.underlying(of: error)?.kind == .headersTooLarge)
            }
            // Under the default 256 KiB cap the same response arrives whole.
            let defaults = try CurlTransport()
            let (_, response) = try await defaults.http(request(server.url("/many-headers/2000")))
            #expect(response.allHeaderFields.count >= 2000)
            await defaults.shutdown()
        }
    }

    /// 64 GiB decoded, from 64 MiB on the wire that the server makes as the socket drains: the
    /// write callback refuses the first chunk past 1 MiB, so neither memory nor time grows with
    /// the bomb. A client that kept what it decoded runs out of memory; one that decoded it all
    /// before giving up spends a minute or more of inflate on it: the time limit, or on an
    /// uninstrumented build the bound below, stops it. The bound cannot flake: a correct client
    /// decodes 1 MiB, which takes milliseconds even on a loaded machine.
    @Test(.timeLimit(.minutes(5))) func aGzipBombStopsAtTheLimitInBoundedTime() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.policies.maximumResponseBytes = 1 << 20
        try await withCurlTransport(configuration) { server, transport in
            let started = ContinuousClock.now
            let code = await urlErrorCode { _ = try await transport.data(for: request(server.url("/bomb/gzip/65536"))) }
            #expect(code == .dataLengthExceedsMaximum)
            if !TestRun.isSanitized {
                #expect(ContinuousClock.now - started < .seconds(30))
            }
        }
    }
}

/// Polls `condition` every 10 ms until it holds or ``TestRun/hangLimit`` passes: passing runs
/// return in milliseconds, and only a hang waits out the limit, however loaded the machine.
func pollUntil(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + TestRun.hangLimit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
