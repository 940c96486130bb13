#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation
import Testing
@testable import CourierCurl

/// Runs `body` against a fresh server and transport, and stops both afterwards whatever happens.
func withCurlTransport<T>(
    _ configuration: CurlTransport.Configuration = .init(),
    _ body: (TestServer, CurlTransport) async throws -> T
) async throws -> T {
    let server = try await TestServer.start()
    let transport = try CurlTransport(configuration: configuration)
    do {
        let result = try await body(server, transport)
        await transport.shutdown()
        try await server.shutdown()
        return result
    } catch {
        await transport.shutdown()
        try await server.shutdown()
        throw error
    }
}

func request(_ url: URL, method: String = "GET", body: String? = nil, headers: [String: String] = [:]) -> URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body.map { Data($0.utf8) }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return request
}

extension CurlTransport {
    func http(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }

    func echo(_ request: URLRequest) async throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: try await http(request).0)
    }
}

extension Echo {
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The `URLError` code `operation` threw, or nil when it threw something else or nothing.
func urlErrorCode(_ operation: () async throws -> Void) async -> URLError.Code? {
    do {
        try await operation()
        return nil
    } catch let error as URLError {
        return error.code
    } catch {
        return nil
    }
}

/// Percent-encodes `text` for use as a query value.
func queryValue(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}

/// One exchange as the engine answers it, with no policy layer over it: a 3xx comes back as it
/// is. What the tests of the engine's own answers read.
struct UnlayeredResponse {
    let body: Data
    let head: ResponseHead

    var statusCode: Int { head.statusCode }
    var url: URL? { head.url }
    var httpVersion: String { head.httpVersion.description }
    var metrics: ExchangeMetrics { head.metrics }

    func value(forHTTPHeaderField name: String) -> String? {
        head.value(forHTTPHeaderField: name)
    }
}

extension CurlTransport {
    /// One exchange on the engine alone; see ``UnlayeredResponse``.
    func response(for request: URLRequest) async throws -> UnlayeredResponse {
        let (body, head) = try await bareEngine.exchange(request)
        return UnlayeredResponse(body: body, head: head)
    }
}
