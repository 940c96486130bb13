#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

extension APIClient {
    /// Opens a WebSocket at `request`'s path, resolved against ``/Courier/APIClient/baseURL`` as
    /// every request is, through the transport the client was made over (see
    /// ``Courier/HTTPTransport/webSocket(for:options:)``).
    ///
    /// ```swift
    /// let socket = try await client.webSocket(Request("chat", headers: ["X-Room": "42"]))
    /// ```
    ///
    /// A handshake the server answers with a status other than 101 throws the
    /// ``/Courier/APIError`` that status has for any request
    /// (``/Courier/APIError/Kind/unauthorized`` for a 401 the `Authentication` layer could not
    /// get past), with the server's head.
    public func webSocket(_ request: Request<WebSocket>, options: WebSocket.Options = WebSocket.Options()) async throws(APIError) -> WebSocket {
        let urlRequest = try urlRequest(for: request)
        let method = urlRequest.httpMethod ?? "GET"
        guard let transport else {
            let refusal = RequestError.unsupportedOption(
                "open a WebSocket over a Networking function", transport: "APIClient(baseURL:networking:)",
                supportedBy: "APIClient(baseURL:transport:)")
            throw APIError(kind: .invalidRequest(refusal), method: method, url: urlRequest.url)
        }
        do {
            return try await ChosenTimeoutInterval.during(request.timeoutInterval) {
                try await transport.webSocket(for: urlRequest, options: options)
            }
        } catch let error as RequestError {
            throw APIError(kind: .invalidRequest(error), method: method, url: urlRequest.url)
        } catch let error as URLError {
            if let head = error.userInfo[WebSocket.refusedHeadKey] as? ResponseHead,
               let kind = APIError.kind(forStatusCode: head.statusCode) {
                throw APIError(kind: kind, method: method, url: urlRequest.url, head: head)
            }
            throw APIError(kind: .transport(error), method: method, url: urlRequest.url)
        } catch {
            throw APIError(kind: .transport(error), method: method, url: urlRequest.url)
        }
    }
}
