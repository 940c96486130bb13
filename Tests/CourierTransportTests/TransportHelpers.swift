#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

extension TransportKind {
    /// Sends `request` and requires an HTTP response.
    func send(_ request: URLRequest, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await networking(request)
        let http = try #require(response as? HTTPURLResponse, sourceLocation: sourceLocation)
        return (data, http)
    }

    /// Sends a request to `pathAndQuery` on `server`.
    func send(
        _ method: String = "GET",
        _ pathAndQuery: String,
        on server: TestServer,
        headers: [String: String] = [:],
        body: Data? = nil,
        timeout: TimeInterval? = nil
    ) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: server.url(pathAndQuery))
        request.httpMethod = method
        request.allHTTPHeaderFields = headers
        request.httpBody = body
        if let timeout { request.timeoutInterval = timeout }
        return try await send(request)
    }

    /// Requires that sending fails with a `URLError` of `code`, and returns it.
    @discardableResult
    func expectURLError(
        _ code: URLError.Code,
        _ method: String = "GET",
        _ pathAndQuery: String,
        on server: TestServer,
        timeout: TimeInterval? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> URLError? {
        do {
            let (_, response) = try await send(method, pathAndQuery, on: server, timeout: timeout)
            Issue.record("expected URLError \(code.rawValue), got status \(response.statusCode)", sourceLocation: sourceLocation)
            return nil
        } catch let error as URLError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            return error
        } catch {
            Issue.record("expected URLError \(code.rawValue), got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

/// Decodes the test server's echo of a request.
func echo(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> Echo {
    try JSONDecoder().decode(Echo.self, from: data)
}

extension Echo {
    /// Every value the server received for `name`, matched case-insensitively.
    func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    var bodyData: Data? { Data(base64Encoded: body) }
}

extension TestRun {
    /// ``hangLimit`` as a request timeout: for a request that must answer, long enough that
    /// only a hang (or a timeout bug that fires early) ends it.
    static var hangLimitSeconds: TimeInterval { TimeInterval(hangLimit.components.seconds) }

    /// ``serverHold`` as a request timeout: for a request whose failure must come from
    /// something else (a closed connection, a deadline), so that its timeout never could.
    static var serverHoldSeconds: TimeInterval { TimeInterval(serverHold.components.seconds) }
}
