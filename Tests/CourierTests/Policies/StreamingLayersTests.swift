#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Courier
import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// The shared layers over `StreamingNetworking` doubles: the buffered layers' rules on the head,
/// and what error descriptions and the total deadline do to a body still arriving.
@Suite struct StreamingLayersTests {
    /// A body an engine would still be receiving, and every action its producer was told.
    private final class Arriving: Sendable {
        let storage: ResponseBodyStorage
        private let actions: Locked<[ResponseBodyStorage.ProducerAction]>

        init() {
            let actions = Locked<[ResponseBodyStorage.ProducerAction]>([])
            self.actions = actions
            storage = ResponseBodyStorage { action in actions.withLock { $0.append(action) } }
        }

        var told: [ResponseBodyStorage.ProducerAction] { actions.withLock { $0 } }
    }

    private func post(_ url: String) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = "POST"
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        return request
    }

    private static func chunks(_ parts: [String]) -> AsyncStream<Data> {
        AsyncStream { continuation in
            for part in parts { continuation.yield(Data(part.utf8)) }
            continuation.finish()
        }
    }

    @Test func seeOtherTurnsPostIntoGetAndDropsTheUpload() async throws {
        let origin = RecordingOrigin(["/form": (303, ["Location": "/done"]), "/done": (200, [:])])
        let streaming = StreamingLayers.followingRedirects()(origin.streaming)
        let (body, response) = try await streaming(try post("http://a.test/form"), .stream(Self.chunks(["na", "me"])))
        #expect(response.statusCode == 200)
        #expect(try await body.collect(upTo: 100) == Data("at /done".utf8))
        let hops = origin.hops.withLock { $0 }
        #expect(hops.map(\.upload) == ["name", nil])
        #expect(hops.map(\.request.httpMethod) == ["POST", "GET"])
        #expect(hops.map { $0.request.value(forHTTPHeaderField: "Content-Type") } == ["text/plain", nil])
    }

    @Test(arguments: [307, 308])
    func aReplayableUploadIsSentAgain(status: Int) async throws {
        let origin = RecordingOrigin(["/put": (status, ["Location": "/there"]), "/there": (201, [:])])
        let (_, response) = try await Policies().apply(to: origin.streaming)(try post("http://a.test/put"), .data(Data("payload".utf8)))
        #expect(response.statusCode == 201)
        let hops = origin.hops.withLock { $0 }
        #expect(hops.map(\.upload) == ["payload", "payload"])
        #expect(hops.map(\.request.httpMethod) == ["POST", "POST"])
    }

    @Test func aFileUploadIsReadAgainOnA307() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
        try Data("from a file".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let origin = RecordingOrigin(["/a": (307, ["Location": "/b"]), "/b": (200, [:])])
        _ = try await Policies().apply(to: origin.streaming)(try post("http://a.test/a"), try .file(file))
        #expect(origin.uploads == ["from a file", "from a file"])
    }

    @Test func aStreamUploadCannotFollowA307() async throws {
        let origin = RecordingOrigin(["/a": (307, ["Location": "/b"]), "/b": (200, [:])])
        let streaming = Policies().apply(to: origin.streaming)
        let request = try post("http://a.test/a")
        await #expect {
            _ = try await streaming(request, .stream(Self.chunks(["once"])))
        } throws: { error in
            guard let error = error as? URLError else { return false }
            return error.code == .requestBodyStreamExhausted
                && error.localizedDescription
                == "the request body stream cannot be sent again: a 307 redirect must resend the body, and a body stream cannot be read twice (POST http://a.test/a)"
        }
        #expect(origin.uploads == ["once"])
    }

    @Test func credentialsDoNotCrossOrigins() async throws {
        let origin = RecordingOrigin([
            "/a": (302, ["Location": "/b"]),
            "/b": (307, ["Location": "http://other.test:81/c"]),
            "/c": (200, [:]),
        ])
        var request = URLRequest(url: try #require(URL(string: "http://a.test/a")))
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        request.setValue("x", forHTTPHeaderField: "X-Api-Key")
        let streaming = StreamingLayers.followingRedirects(RedirectPolicy(sensitiveHeaderNames: ["x-api-key"]))(origin.streaming)
        let (_, response) = try await streaming(request, nil)
        #expect(response.url?.absoluteString == "http://other.test:81/c")
        let hops = origin.hops.withLock { $0 }
        #expect(hops.map { $0.request.value(forHTTPHeaderField: "Authorization") } == ["Bearer t", "Bearer t", nil])
        #expect(hops.map { $0.request.value(forHTTPHeaderField: "X-Api-Key") } == ["x", "x", nil])
    }

    @Test func theHeadAndTheBodyOfARedirectedExchangeListTheHopsBeforeIt() async throws {
        var hop = ExchangeMetrics()
        hop.firstByte = .milliseconds(3)
        var last = ExchangeMetrics()
        last.firstByte = .milliseconds(2)
        last.total = .milliseconds(5)
        let streaming: StreamingNetworking = { [hop, last] request, _ in
            if request.url?.path == "/old" {
                return (ResponseBody(Data()), ResponseHead(statusCode: 301, headerFields: ["Location": "/new"], url: request.url, metrics: hop))
            }
            var head = ResponseHead(statusCode: 200, url: request.url)
            head.metrics.firstByte = last.firstByte
            return (ResponseBody(Data("new".utf8), metrics: last), head)
        }
        let (body, head) = try await StreamingLayers.followingRedirects()(streaming)(URLRequest(url: try #require(URL(string: "http://a.test/old"))), nil)
        #expect(head.metrics.redirects == [hop])
        #expect(head.metrics.total == nil)
        _ = try await body.collect(upTo: 10)
        var expected = last
        expected.redirects = [hop]
        #expect(body.metrics == expected)
    }

    @Test func aBodyWithoutMetricsHasNone() async throws {
        let body = ResponseBody(Data("x".utf8))
        _ = try await body.collect(upTo: 10)
        #expect(body.metrics == nil)
    }

    @Test func theBodyOfAFollowedRedirectIsDroppedAndItsTransferCancelled() async throws {
        let redirectBody = Arriving()
        redirectBody.storage.write(Data("moved".utf8))
        let streaming: StreamingNetworking = { request, _ in
            if request.url?.path == "/old" {
                return (ResponseBody(redirectBody.storage), try responseHead(for: request, status: 301, headers: ["Location": "/new"]))
            }
            return (ResponseBody(Data("new".utf8)), try responseHead(for: request, status: 200))
        }
        let (body, _) = try await StreamingLayers.followingRedirects()(streaming)(URLRequest(url: try #require(URL(string: "http://a.test/old"))), nil)
        #expect(try await body.collect(upTo: 10) == Data("new".utf8))
        #expect(redirectBody.told == [.cancel])
    }

    @Test func aMalformedHeadIsRefusedBeforeItsBodyIsRead() async throws {
        let body = Arriving()
        let streaming: StreamingNetworking = { request, _ in
            (ResponseBody(body.storage), try responseHead(for: request, status: 200, headers: ["Content-Length": "2, 3"]))
        }
        await #expect {
            _ = try await Policies().apply(to: streaming)(URLRequest(url: try #require(URL(string: "http://a.test/v"))), nil)
        } throws: { error in
            (error as? URLError)?.localizedDescription
                == "the server's response is not valid HTTP: Content-Length is given more than once with different values (2, 3) (GET http://a.test/v)"
        }
        #expect(body.told == [.cancel])
    }

    @Test(.timeLimit(.minutes(5))) func theTotalDeadlineEndsABodyThatIsStillArriving() async throws {
        let arriving = Arriving()
        let streaming: StreamingNetworking = { request, _ in
            arriving.storage.write(Data("first".utf8))
            return (ResponseBody(arriving.storage), try responseHead(for: request, status: 200))
        }
        var policies = Policies()
        policies.totalDeadline = 0.3
        let started = ContinuousClock.now
        let (body, _) = try await policies.apply(to: streaming)(URLRequest(url: try #require(URL(string: "http://a.test/endless"))), nil)
        var chunks = body.makeAsyncIterator()
        #expect(try await chunks.next() == Data("first".utf8))
        await #expect {
            _ = try await chunks.next()
        } throws: { error in
            guard let error = error as? URLError else { return false }
            return error.code == .timedOut
                && error.localizedDescription
                == "timed out: the total deadline of 0.3 s passed before the response was complete (GET http://a.test/endless)"
        }
        // Not early. The body never ends by itself, so without the deadline the read above
        // hangs into the time limit: no upper bound is needed to see that it fired.
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(arriving.told == [.cancel])
        #expect(try await chunks.next() == nil)
    }

    /// The head comes only after ``TestRun/serverHold``: a deadline that did not race it lets
    /// the head through instead of throwing.
    @Test(.timeLimit(.minutes(10))) func theTotalDeadlineRacesTheHead() async throws {
        let cancelled = Mutex(false)
        let slow: StreamingNetworking = { request, _ in
            do {
                try await Task.sleep(for: TestRun.serverHold)
            } catch {
                cancelled.withLock { $0 = true }
                throw URLError(.cancelled)
            }
            return (ResponseBody(Data()), try responseHead(for: request, status: 200))
        }
        let streaming = layered(slow, [StreamingLayers.describingErrors(), StreamingLayers.totalDeadline(0.2)])
        await #expect {
            _ = try await streaming(URLRequest(url: try #require(URL(string: "http://a.test/slow"))), nil)
        } throws: { error in
            (error as? URLError)?.localizedDescription
                == "timed out: the total deadline of 0.2 s passed before the response was complete (GET http://a.test/slow)"
        }
        #expect(cancelled.withLock { $0 })
    }

    @Test func aBodyDroppedBeforeTheDeadlineIsCancelledAtOnce() async throws {
        let arriving = Arriving()
        let streaming: StreamingNetworking = { request, _ in
            (ResponseBody(arriving.storage), try responseHead(for: request, status: 200))
        }
        var policies = Policies()
        policies.totalDeadline = 60
        do {
            let (body, _) = try await policies.apply(to: streaming)(URLRequest(url: try #require(URL(string: "http://a.test/"))), nil)
            #expect(!body.isEnded)
        }
        // Had the deadline's timer held the body, its transfer would go on for a minute.
        #expect(arriving.told == [.cancel])
    }

    @Test func aBodyCompleteWithinTheDeadlineIsReadAsItIs() async throws {
        let arriving = Arriving()
        // The body has ended when the head is returned, so no load can make it late; the wait
        // then lets the deadline pass over the ended, unread body, which it must leave alone.
        let streaming: StreamingNetworking = { request, _ in
            arriving.storage.write(Data("whole".utf8))
            arriving.storage.finish(trailerFields: ["Checksum": "1"])
            return (ResponseBody(arriving.storage), try responseHead(for: request, status: 200))
        }
        let (body, _) = try await StreamingLayers.totalDeadline(0.2)(streaming)(URLRequest(url: try #require(URL(string: "http://a.test/"))), nil)
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await body.collect(upTo: 10) == Data("whole".utf8))
        #expect(body.trailerFields == ["Checksum": "1"])
        #expect(arriving.told.isEmpty)
    }

    @Test func errorsThrownWhileTheBodyIsReadAreDescribed() async throws {
        let arriving = Arriving()
        let streaming: StreamingNetworking = { request, _ in
            arriving.storage.write(Data("part".utf8))
            return (ResponseBody(arriving.storage), try responseHead(for: request, status: 200))
        }
        var request = URLRequest(url: try #require(URL(string: "http://a.test/short")))
        request.httpMethod = "PUT"
        let (body, _) = try await layered(streaming, [StreamingLayers.describingErrors(), StreamingLayers.describingErrors()])(request, nil)
        arriving.storage.fail(URLError(.networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: "transfer closed with 97 bytes remaining to read"]))
        var chunks = body.makeAsyncIterator()
        #expect(try await chunks.next() == Data("part".utf8))
        await #expect {
            _ = try await chunks.next()
        } throws: { error in
            (error as? URLError)?.localizedDescription
                == "the connection was lost before the response was complete: transfer closed with 97 bytes remaining to read (PUT http://a.test/short)"
        }
        #expect(try await chunks.next() == nil)
    }

    @Test func errorsThrownBeforeTheHeadAreDescribed() async throws {
        let streaming = StreamingLayers.describingErrors()({ _, _ in throw URLError(.timedOut) })
        var request = URLRequest(url: try #require(URL(string: "http://a.test/never")))
        request.timeoutInterval = 1.5
        await #expect {
            _ = try await streaming(request, nil)
        } throws: { error in
            (error as? URLError)?.localizedDescription == "timed out: no data received or sent for 1.5 s (GET http://a.test/never)"
        }
    }

    @Test func theStreamingLayersMatchTheBufferedOnes() {
        var policies = Policies()
        #expect(policies.streamingLayers.count == policies.layers.count)
        policies.totalDeadline = 5
        policies.cookies = CookieStore()
        #expect(policies.streamingLayers.count == 6)
        #expect(policies.layers.count == 6)
        policies.retries = .standard
        #expect(policies.streamingLayers.count == policies.layers.count)
    }
}
