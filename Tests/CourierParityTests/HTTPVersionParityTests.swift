#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierParity
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// The curl engine over HTTP/1.1 and over HTTP/2, through the same nginx in front of the test
/// server, must answer alike: same outcome, status, headers, body, final URL and failure, and
/// the server behind nginx must receive the same request. Only what HTTP/2 itself changes is
/// left out: the connection-specific fields it forbids (`Connection`, `Transfer-Encoding`,
/// RFC 9113 §8.2.2), and the letter case of the header names an echo lists, which HTTP/2
/// sends in lower case (and so, for an encoded echo, its `Content-Length`).
/// One test at a time: each makes certificates and starts servers, and all at once they took
/// the CPU from other suites' tests that time what they wait for.
@Suite(.serialized) struct HTTPVersionParityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var method = "GET"
        var pathAndQuery: String
        var body: String?
        var headers: [String: String] = [:]
        var timeout: TimeInterval?
        /// What is compared; a request that times out may or may not have reached the server
        /// behind nginx by then, whichever version carried it.
        var compared: ComparedFields = .all
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "GET with a query", pathAndQuery: "/get?a=1&b=two%20words"),
        Case(name: "404", pathAndQuery: "/status/404"),
        Case(name: "204 without a body", pathAndQuery: "/status/204"),
        Case(name: "500", pathAndQuery: "/status/500"),
        Case(name: "HEAD", method: "HEAD", pathAndQuery: "/get"),
        Case(name: "POST a form", method: "POST", pathAndQuery: "/anything", body: "a=1&b=2"),
        Case(name: "PUT JSON", method: "PUT", pathAndQuery: "/anything", body: #"{"x":1}"#, headers: ["Content-Type": "application/json"]),
        Case(name: "DELETE", method: "DELETE", pathAndQuery: "/anything"),
        Case(name: "request headers", pathAndQuery: "/headers", headers: ["X-Custom": "value", "Accept": "application/json"]),
        Case(name: "repeated response headers", pathAndQuery: "/response-headers?X-Repeat=one&X-Repeat=two"),
        Case(name: "gzip", pathAndQuery: "/gzip"),
        Case(name: "deflate", pathAndQuery: "/deflate"),
        Case(name: "100 kB body", pathAndQuery: "/bytes/100000?seed=5"),
        Case(name: "chunked upstream body", pathAndQuery: "/stream-bytes/100000?chunk_size=3000"),
        Case(name: "redirect chain", pathAndQuery: "/redirect/3"),
        Case(name: "303 turns POST into GET", method: "POST", pathAndQuery: "/redirect-to?url=/get&status_code=303", body: "x"),
        Case(name: "307 keeps the POST", method: "POST", pathAndQuery: "/redirect-to?url=/anything&status_code=307", body: "kept"),
        Case(name: "idle timeout", pathAndQuery: "/never", timeout: 0.5, compared: .response),
        Case(name: "body past the limit", pathAndQuery: "/bytes/200000"),
    ]

    /// A body limit that one case crosses and the others stay inside.
    private static func configuration(_ version: CurlTransport.HTTPVersionPreference, files: TLSTestFiles) -> CurlTransport.Configuration {
        var configuration = CurlTransport.Configuration()
        configuration.caBundlePath = files.caBundlePath
        configuration.httpVersion = version
        configuration.policies.maximumResponseBytes = 150_000
        return configuration
    }

    @Test(arguments: cases)
    func http1AndHTTP2AnswerAlike(_ parityCase: Case) async throws {
        let server = try await TestServer.start()
        do {
            try await withHTTP2Proxy(upstreamPort: server.port) { proxy, files in
                let http1 = try CurlTransport(configuration: Self.configuration(.http1_1, files: files))
                let http2 = try CurlTransport(configuration: Self.configuration(.automatic, files: files))
                let (h1, receivedOverH1) = await exchange(parityCase, http1, proxy, server)
                let (h2, receivedOverH2) = await exchange(parityCase, http2, proxy, server)
                await http1.shutdown()
                await http2.shutdown()
                let (echo1, isEcho) = Self.withLowercasedEchoNames(h1)
                let (echo2, _) = Self.withLowercasedEchoNames(h2)
                let comparison = ParityComparison(fields: parityCase.compared)
                let differences = (comparison.differences(urlSession: echo1, curl: echo2)
                    + comparison.differences(urlSession: receivedOverH1, curl: receivedOverH2))
                    .filter { ![.header("connection"), .header("transfer-encoding")].contains($0.field) }
                    .filter { !(isEcho && $0.field == .header("content-length")) }
                #expect(differences.isEmpty, "HTTP/1.1 against HTTP/2: \(differences)")
                // A request that timed out is logged only once the upstream answers.
                if parityCase.timeout == nil {
                    let log = await proxy.accessLog(atLeast: 2)
                    #expect(log.contains { $0.contains("HTTP/2.0") } && log.contains { $0.contains("HTTP/1.1") }, "\(log)")
                }
            }
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    /// The outcome with the echo's header list in name order and its names in lower case,
    /// and whether the body was an echo.
    private static func withLowercasedEchoNames(_ outcome: ExchangeOutcome) -> (ExchangeOutcome, Bool) {
        guard case .response(var response) = EchoBodyNormalisation.normalised(outcome) else { return (outcome, false) }
        let lowercased = { (fields: [HTTPHeaderField]) in fields.map { HTTPHeaderField(name: $0.name.lowercased(), value: $0.value) } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if var echo = try? JSONDecoder().decode(Echo.self, from: response.body) {
            echo.headers = lowercased(echo.headers)
            response.body = (try? encoder.encode(echo)) ?? response.body
        } else if let list = try? JSONDecoder().decode([String: [HTTPHeaderField]].self, from: response.body), let fields = list["headers"] {
            response.body = (try? encoder.encode(["headers": lowercased(fields)])) ?? response.body
        } else {
            return (outcome, false)
        }
        return (.response(response), true)
    }

    private func exchange(
        _ parityCase: Case, _ transport: CurlTransport, _ proxy: HTTP2TestProxy, _ server: TestServer
    ) async -> (ExchangeOutcome, ReceivedRequest?) {
        var request = URLRequest(url: proxy.tlsURL(parityCase.pathAndQuery))
        request.httpMethod = parityCase.method
        request.httpBody = parityCase.body.map { Data($0.utf8) }
        for (name, value) in parityCase.headers { request.setValue(value, forHTTPHeaderField: name) }
        if let timeout = parityCase.timeout { request.timeoutInterval = timeout }
        let before = server.requestCount
        let outcome = await ExchangeOutcome(sending: request, through: transport.networking)
        let received = server.requestCount > before ? server.lastRequest.map(ReceivedRequest.init) : nil
        return (outcome, received)
    }
}
