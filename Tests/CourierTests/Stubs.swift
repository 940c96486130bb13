#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// Closure doubles: a `Networking` in a test is just a function.

func httpResponse(for request: URLRequest, status: Int, headers: [String: String] = [:]) throws -> HTTPURLResponse {
    let url = request.url ?? URL(fileURLWithPath: "/")
    guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers) else {
        throw URLError(.badServerResponse)
    }
    return response
}

/// A `Networking` double answering every request with `status` and `body`.
func stub(status: Int, body: String = "", headers: [String: String] = [:]) -> Networking {
    { request in (Data(body.utf8), try httpResponse(for: request, status: status, headers: headers)) }
}
