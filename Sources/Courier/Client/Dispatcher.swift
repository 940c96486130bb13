#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sends `URLRequest`s through a ``Networking`` value, validates the status code and decodes
/// bodies, turning every failure into one ``APIError``.
///
/// The dispatcher knows nothing about transports: give it a `URLSessionTransport`, a
/// `CurlTransport`, a composed ``Networking`` or a closure double.
///
/// WireKit calls this type `NetworkDispatcher`; its `dispatch(request:)` is
/// ``dispatch(_:as:)`` here, and its `NetworkRequestError` cases are ``APIError/Kind`` cases.
public struct Dispatcher: Sendable {
    /// Sends the requests.
    public var networking: Networking
    /// Decodes response bodies.
    public var decoder: JSONDecoder
    /// Statuses treated as success; anything else becomes an ``APIError`` with the body kept.
    public var acceptableStatusCodes: Range<Int>

    /// Creates a dispatcher over `networking`.
    public init(
        networking: @escaping Networking,
        decoder: JSONDecoder = JSONDecoder(),
        acceptableStatusCodes: Range<Int> = 200..<300
    ) {
        self.networking = networking
        self.decoder = decoder
        self.acceptableStatusCodes = acceptableStatusCodes
    }

    /// Sends `request` and returns the body and response of an acceptable status.
    public func dispatch(_ request: URLRequest) async throws(APIError) -> (Data, HTTPURLResponse) {
        let method = request.httpMethod ?? "GET"
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await networking(request)
        } catch let error as RequestError {
            throw APIError(kind: .invalidRequest(error), method: method, url: request.url)
        } catch {
            throw APIError(kind: .transport(error), method: method, url: request.url)
        }
        guard let http = response as? HTTPURLResponse else {
            throw APIError(kind: .notHTTP, method: method, url: request.url, body: data)
        }
        guard acceptableStatusCodes.contains(http.statusCode) else {
            let kind = APIError.kind(forStatusCode: http.statusCode) ?? .unexpectedStatus(statusCode: http.statusCode)
            throw APIError(kind: kind, method: method, url: request.url, response: http, body: data)
        }
        return (data, http)
    }

    /// Sends `request` and decodes the body of an acceptable response as `type`.
    public func dispatch<Response: Decodable>(
        _ request: URLRequest,
        as type: Response.Type = Response.self
    ) async throws(APIError) -> Response {
        let (data, response) = try await dispatch(request)
        return try decode(type, from: data, response: response, request: request)
    }

    func decode<Response: Decodable>(
        _ type: Response.Type,
        from data: Data,
        response: HTTPURLResponse,
        request: URLRequest
    ) throws(APIError) -> Response {
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw APIError(kind: .decoding(error), method: request.httpMethod ?? "GET", url: request.url, response: response, body: data)
        } catch {
            // JSONDecoder only throws DecodingError; keep any other error rather than lose it.
            throw APIError(kind: .transport(error), method: request.httpMethod ?? "GET", url: request.url, response: response, body: data)
        }
    }
}
