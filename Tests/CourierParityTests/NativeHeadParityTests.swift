#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// The engines' own heads, compared: the same status, final URL and fields through both
/// `exchange`s, and the metric fields each engine fills, as their documentation states.
@Suite struct NativeHeadParityTests {
    /// Fields that differ between two requests for reasons of time or connection.
    private static let unstable: Set<String> = ["date", "keep-alive", "age", "expires"]

    private static func comparable(_ head: ResponseHead) -> [String: String] {
        head.headerFields.joined.reduce(into: [:]) { fields, field in
            let name = field.key.lowercased()
            if !unstable.contains(name) { fields[name] = field.value }
        }
    }

    /// The names of the metrics an engine filled for one exchange.
    private static func filled(_ metrics: ExchangeMetrics) -> Set<String> {
        var names: Set<String> = []
        if metrics.nameLookup != nil { names.insert("nameLookup") }
        if metrics.connect != nil { names.insert("connect") }
        if metrics.requestSent != nil { names.insert("requestSent") }
        if metrics.firstByte != nil { names.insert("firstByte") }
        if metrics.total != nil { names.insert("total") }
        if metrics.connectionReused != nil { names.insert("connectionReused") }
        if metrics.remoteAddress != nil { names.insert("remoteAddress") }
        if metrics.localAddress != nil { names.insert("localAddress") }
        if metrics.requestBytes != nil { names.insert("requestBytes") }
        if metrics.responseHeaderBytes != nil { names.insert("responseHeaderBytes") }
        if metrics.responseBodyBytes != nil { names.insert("responseBodyBytes") }
        if metrics.decodedBodyBytes != nil { names.insert("decodedBodyBytes") }
        return names
    }

    @Test(arguments: ["/get", "/redirect/2", "/gzip", "/status/404", "/response-headers?X-A=1&X-A=2", "/bytes/3000"])
    func bothEnginesAnswerTheSameHead(path: String) async throws {
        let server = try await TestServer.start()
        let urlSession = URLSessionTransport()
        let curl = try CurlTransport()
        let request = URLRequest(url: server.url(path))
        let (urlSessionBody, urlSessionHead) = try await urlSession.exchange(request)
        let (curlBody, curlHead) = try await curl.exchange(request)
        #expect(urlSessionHead.statusCode == curlHead.statusCode)
        #expect(urlSessionHead.url == curlHead.url)
        #expect(urlSessionHead.metrics.redirects.count == curlHead.metrics.redirects.count)
        if !path.hasPrefix("/gzip") && !path.hasPrefix("/redirect") {
            // Echo routes answer with what each engine sent, which differs in nothing but may
            // differ in length where a header does; bodies are compared by the catalogue.
            #expect(Self.comparable(urlSessionHead) == Self.comparable(curlHead))
            #expect(urlSessionBody == curlBody)
        }
        #expect(Self.filled(urlSessionHead.metrics) == ["firstByte", "total", "decodedBodyBytes"])
        let curlFilled = Self.filled(curlHead.metrics)
        // A name is looked up for a new connection only; the last hop of a redirect reuses the first's.
        let lookup: Set<String> = curlHead.metrics.connectionReused == true ? [] : ["nameLookup"]
        #expect(curlFilled.isSuperset(of: lookup.union([
            "requestSent", "firstByte", "total", "connectionReused", "remoteAddress", "localAddress",
            "requestBytes", "responseHeaderBytes", "responseBodyBytes", "decodedBodyBytes",
        ])), "\(curlFilled)")
        #expect(path.hasPrefix("/redirect") == (curlHead.metrics.connectionReused == true))
        await urlSession.shutdown()
        await curl.shutdown()
        try await server.shutdown()
    }
}
