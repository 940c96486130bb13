#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sends one HTTP request and returns the response body and metadata.
///
/// `Networking` is the single seam between Courier and the wire. It has the shape of
/// `URLSession.data(for:)`, so any transport, decorator or test double is just a value of this
/// type:
///
/// ```swift
/// let live: Networking = URLSessionTransport().networking
/// let stub: Networking = { request in
///     (Data(#"{"id":1}"#.utf8), HTTPURLResponse(url: request.url!, statusCode: 200,
///                                               httpVersion: nil, headerFields: nil)!)
/// }
/// ```
///
/// ## Implementing a transport
///
/// A conforming function must:
/// - return an `HTTPURLResponse` for every HTTP exchange, whatever its status code: a 404 is a
///   response, not an error. Status validation belongs to ``Dispatcher``.
/// - throw `URLError` for failures on the wire (refused connection, timeout, connection lost,
///   cancellation), with the code URLSession uses for the same event, so callers can switch
///   transports without changing their error handling;
/// - throw ``RequestError`` for requests it refuses to send, before anything goes on the wire
///   (see `URLRequest.validateForSending()`);
/// - honour Task cancellation promptly by throwing `URLError(.cancelled)`.
public typealias Networking = @Sendable (URLRequest) async throws -> (Data, URLResponse)
