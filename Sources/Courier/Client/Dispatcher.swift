#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sends `URLRequest`s through a ``Networking`` value, validates the status code and decodes
/// bodies, turning every failure into one ``APIError``.
///
/// The dispatcher knows nothing about transports: it sends through any ``Networking``, a
/// transport's ``HTTPTransport/networking``, one with a function composed in front, or a
/// closure double in a test.
///
/// WireKit calls this type `NetworkDispatcher`; its `dispatch(request:)` is
/// ``dispatch(_:as:)`` here, and its `NetworkRequestError` cases are ``APIError/Kind`` cases.
public struct Dispatcher: Sendable {
    /// What sends the requests, answering with Courier's own ``ResponseHead``.
    package var exchange: HTTPExchange
    /// What sends the requests, as a ``Networking``; setting it wraps the new value in an
    /// ``HTTPExchange`` (`exchange(_:)`), which reads its `HTTPURLResponse` without copying it.
    package var networking: Networking {
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
    package init(
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
        // The errors are made in synchronous functions kept out of line: this frame stays
        // allocated for as long as the request is in flight, and every value it could hold
        // (an inlined function's locals included) makes it larger.
        let answer: (Data, ResponseHead)
        do {
            answer = try await exchange(request)
        } catch {
            throw APIError.failure(error, sending: request)
        }
        guard acceptableStatusCodes.contains(answer.1.statusCode) else {
            throw APIError.unacceptable(answer.1, body: answer.0, for: request)
        }
        return answer
    }

    /// ``response(to:)`` with Foundation's response, built for this caller.
    package func dispatch(_ request: URLRequest) async throws(APIError) -> (Data, HTTPURLResponse) {
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
