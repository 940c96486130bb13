#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// Layers of the user's own on both engines: a call layer runs once per call whatever the
/// policies do below it, a hop layer once per attempt and per redirect, on buffered and
/// streamed calls alike, in the order written down in ``Policies/apply(to:)``.
@Suite(.testServer) struct TransportLayerTests {
    @Test(arguments: TransportKind.configured)
    func aCallLayerSeesOneCallAndAHopLayerEveryRedirect(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let log = LayerLog()
        var policies = Policies()
        policies.callLayers = [RecordingLayer(name: "call", log: log)]
        policies.hopLayers = [RecordingLayer(name: "hop", log: log)]
        try await transport.withRetryingTransport(policies: policies) { stack in
            let (_, head) = try await stack.exchange(URLRequest(url: server.url("/redirect/2")))
            #expect(head.statusCode == 200)
            #expect(log.entries == [
                "call > /redirect/2", "hop > /redirect/2", "hop < 302 /redirect/2", "hop > /redirect/1", "hop < 302 /redirect/1",
                "hop > /get", "hop < 200 /get", "call < 200 /get",
            ])
            log.clear()
            let (body, streamedHead) = try await stack.streaming(URLRequest(url: server.url("/redirect/1")), nil)
            _ = try await body.collect(upTo: 1 << 20)
            #expect(streamedHead.statusCode == 200)
            #expect(log.entries == [
                "call > /redirect/1", "hop > /redirect/1", "hop < 302 /redirect/1", "hop > /get", "hop < 200 /get", "call < 200 /get",
            ])
        }
    }

    @Test(arguments: TransportKind.configured)
    func aHopLayerSeesEveryAttemptARetryMakes(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let log = LayerLog()
        let key = UUID().uuidString
        var policies = Policies()
        policies.retries = RetryPolicy(maximumAttempts: 3, initialDelay: 0.001, jitter: 0)
        policies.callLayers = [RecordingLayer(name: "call", log: log)]
        policies.hopLayers = [RecordingLayer(name: "hop", log: log)]
        let path = "/flaky/\(key)/2"
        try await transport.withRetryingTransport(policies: policies) { stack in
            let (_, head) = try await stack.exchange(URLRequest(url: server.url(path)))
            #expect(head.statusCode == 200)
        }
        #expect(log.entries == [
            "call > \(path)", "hop > \(path)", "hop < 503 \(path)", "hop > \(path)", "hop < 503 \(path)",
            "hop > \(path)", "hop < 200 \(path)", "call < 200 \(path)",
        ])
    }

    @Test(arguments: TransportKind.configured)
    func callLayersRunInTheOrderGivenTheFirstOutermost(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let log = LayerLog()
        var policies = Policies()
        policies.callLayers = [RecordingLayer(name: "outer", log: log), RecordingLayer(name: "inner", log: log)]
        try await transport.withRetryingTransport(policies: policies) { stack in
            _ = try await stack.exchange(URLRequest(url: server.url("/get")))
        }
        #expect(log.entries == ["outer > /get", "inner > /get", "inner < 200 /get", "outer < 200 /get"])
    }

    /// A hop layer sits inside the cookie layer: it sees the request as the engine gets it.
    @Test(arguments: TransportKind.configured)
    func aHopLayerSeesTheCookiesTheCookieLayerAdded(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let seen = LayerLog()
        var policies = Policies()
        policies.cookies = CookieStore()
        policies.hopLayers = [HeaderReadingLayer(field: "Cookie", log: seen)]
        try await transport.withRetryingTransport(policies: policies) { stack in
            _ = try await stack.exchange(URLRequest(url: server.url("/cookies/set?flavour=oat")))
        }
        // The first hop sets the cookie; the redirect it answers with sends it back.
        #expect(seen.entries == ["", "flavour=oat"])
    }

    /// A call layer sits outside error descriptions: the error it sees is the one the caller
    /// gets, naming what happened, the method and the URL.
    @Test(arguments: TransportKind.configured)
    func aCallLayerSeesTheDescribedError(_ transport: TransportKind) async throws {
        let refusing = try await RefusingPort.open()
        let log = LayerLog()
        var policies = Policies()
        policies.callLayers = [RecordingLayer(name: "call", log: log)]
        await transport.withRetryingTransportIgnoringErrors(policies: policies) { stack in
            _ = try await stack.exchange(URLRequest(url: refusing.url("/get")))
        }
        let entries = log.entries
        #expect(entries.count == 2)
        #expect(entries.last?.hasPrefix("call ! -1004 ") == true)
        #expect(entries.last?.contains("(GET \(refusing.url("/get").absoluteString))") == true)
    }
}

/// What the layers of one test saw, in order.
final class LayerLog: Sendable {
    private let lines = Locked<[String]>([])

    var entries: [String] { lines.withLock { $0 } }

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    func clear() {
        lines.withLock { $0.removeAll() }
    }
}

/// Logs each request's path on the way down and each answer on the way up.
struct RecordingLayer: HTTPExchangeLayer {
    let name: String
    let log: LayerLog

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        log.append("\(name) > \(request.url?.path ?? "")")
        do {
            let (body, head) = try await next(request)
            log.append("\(name) < \(head.statusCode) \(head.url?.path ?? "")")
            return (body, head)
        } catch let error as URLError {
            log.append("\(name) ! \(error.code.rawValue) \(error.localizedDescription)")
            throw error
        }
    }
}

/// Logs the value of one request field on every send, empty when absent.
struct HeaderReadingLayer: HTTPExchangeLayer {
    let field: String
    let log: LayerLog

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        log.append(request.value(forHTTPHeaderField: field) ?? "")
        return try await next(request)
    }
}

extension TransportKind {
    /// ``withRetryingTransport(policies:_:)`` for a body expected to throw.
    func withRetryingTransportIgnoringErrors(policies: Policies, _ body: (RetryingTransport) async throws -> Void) async {
        _ = try? await withRetryingTransport(policies: policies, body)
    }
}
