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
    /// What sends the requests, answering with Courier's own ``ResponseHead``.
    public var exchange: HTTPExchange
    /// What sends the requests, as a ``Networking``; setting it wraps the new value in an
    /// ``HTTPExchange`` (``exchange(_:)``), which reads its `HTTPURLResponse` without copying it.
    public var networking: Networking {
        get { Courier.networking(exchange) }
        set { exchange = Courier.exchange(newValue) }
    }
    /// Decodes response bodies.
    public var decoder: JSONDecoder
    /// Status codes that count as success; anything else becomes an ``APIError``.
    public var acceptableStatusCodes: Range<Int>

    /// A dispatcher over a ``Networking``: a transport's `networking`, a composed stack or a test
    /// double.
    public init(
        networking: @escaping Networking,
        decoder: JSONDecoder = JSONDecoder(),
        acceptableStatusCodes: Range<Int> = 200..<300
    ) {
        self.init(exchange: Courier.exchange(networking), decoder: decoder, acceptableStatusCodes: acceptableStatusCodes)
    }

    /// A dispatcher over an ``HTTPExchange``, such as a transport's `exchange`: no Foundation
    /// response is built unless a caller asks for one (``dispatch(_:)``).
    public init(
        exchange: @escaping HTTPExchange,
        decoder: JSONDecoder = JSONDecoder(),
        acceptableStatusCodes: Range<Int> = 200..<300
    ) {
        self.exchange = exchange
        self.decoder = decoder
        self.acceptableStatusCodes = acceptableStatusCodes
    }

    /// Sends `request` and returns the body and head, or throws an ``APIError`` for a failure,
    /// a response that is not HTTP, or a status outside ``acceptableStatusCodes``.
    public func response(to request: URLRequest) async throws(APIError) -> (Data, ResponseHead) {
        let method = request.httpMethod ?? "GET"
        let data: Data
        let head: ResponseHead
        do {
            (data, head) = try await exchange(request)
        } catch let error as RequestError {
            throw APIError(kind: .invalidRequest(error), method: method, url: request.url)
        } catch let error as NotHTTPResponse {
            throw APIError(kind: .notHTTP, method: method, url: request.url, body: error.body)
        } catch {
            throw APIError(kind: .transport(error), method: method, url: request.url)
        }
        guard acceptableStatusCodes.contains(head.statusCode) else {
            let kind = APIError.kind(forStatusCode: head.statusCode) ?? .unexpectedStatus(statusCode: head.statusCode)
            throw APIError(kind: kind, method: method, url: request.url, head: head, body: data)
        }
        return (data, head)
    }

    /// ``response(to:)`` with Foundation's response, built for this caller.
    public func dispatch(_ request: URLRequest) async throws(APIError) -> (Data, HTTPURLResponse) {
        let (data, head) = try await response(to: request)
        guard let http = head.httpURLResponse else {
            throw APIError(kind: .notHTTP, method: request.httpMethod ?? "GET", url: request.url, body: data)
        }
        return (data, http)
    }

    /// Sends `request` and decodes the body as `Response`.
    public func dispatch<Response: Decodable>(
        _ request: URLRequest,
        as type: Response.Type = Response.self
    ) async throws(APIError) -> Response {
        let (data, head) = try await response(to: request)
        return try decode(type, from: data, head: head, request: request)
    }

    func decode<Response: Decodable>(
        _ type: Response.Type,
        from data: Data,
        head: ResponseHead,
        request: URLRequest
    ) throws(APIError) -> Response {
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw APIError(kind: .decoding(error), method: request.httpMethod ?? "GET", url: request.url, head: head, body: data)
        } catch {
            // JSONDecoder only throws DecodingError; keep any other error rather than lose it.
            throw APIError(kind: .transport(error), method: request.httpMethod ?? "GET", url: request.url, head: head, body: data)
        }
    }
}
