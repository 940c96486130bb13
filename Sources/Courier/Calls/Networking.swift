#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sends one HTTP request and returns the response body and metadata.
///
/// `Networking` is the function type you compose, swap and double in tests: a transport's
/// ``HTTPTransport/networking``, the same with a function chained in front
/// (``chain(_:to:)-8ygq5``), and a test double are all values of it, and code written against
/// it takes any of them. It has the shape of `URLSession.data(for:)`:
///
/// ```swift
/// let live: Networking = URLSessionTransport().networking
/// let stub: Networking = { request in
///     (Data(#"{"id":1}"#.utf8), HTTPURLResponse(url: request.url!, statusCode: 200,
///                                               httpVersion: nil, headerFields: nil)!)
/// }
/// ```
///
/// Transports are not written as one: they are built over an engine's single exchange (see
/// <doc:ImplementingATransport>), and hand out a `Networking` for the code that sends requests.
///
/// ## Writing one
///
/// A function of this type, a test double included, must:
/// - return an `HTTPURLResponse` for every HTTP exchange, whatever its status code: a 404 is a
///   response, not an error. Status validation belongs to ``Dispatcher``.
/// - throw `URLError` for failures on the wire (refused connection, timeout, connection lost,
///   cancellation), with the code URLSession uses for the same event, so callers can switch
///   transports without changing their error handling;
/// - throw ``RequestError`` for requests it refuses to send, before anything goes on the wire
///   (see `URLRequest.validateForSending()`);
/// - honour Task cancellation promptly by throwing `URLError(.cancelled)`.
public typealias Networking = @Sendable (URLRequest) async throws -> (Data, URLResponse)
