import Foundation

/// An HTTP method together with the data that belongs to it.
///
/// Query items travel with `GET`, bodies with `POST`, `PUT` and `PATCH`; `HEAD` and `DELETE`
/// carry neither, so a body on a `GET` cannot be written by accident. Any other verb is sent
/// deliberately with ``custom(_:body:)``.
///
/// ```swift
/// Request<[Repo]>("search/repositories", method: .get([URLQueryItem(name: "q", value: "swift")]))
/// Request<Todo>("todos", method: .post(.json(newTodo)))
/// Request<Receipt>("reports", method: .post(try .multipart(form)))   // a file read as it is sent
/// Request<Void>("todos/7", method: .delete)
/// ```
///
/// Two methods are equal when they are the same case with equal payloads: the same query items
/// in the same order, bodies equal as ``RequestBody`` compares them, and custom names equal
/// letter for letter (method names are case-sensitive), so `method == .get()` tests for a `GET`
/// without query items. ``options`` is `.custom("OPTIONS")`, and `.custom("GET")` is not
/// ``get(_:)``.
///
/// "Building type-safe networking in Swift" calls this type `HttpMethod`; Courier spells it as
/// Foundation spells `HTTPURLResponse`.
public enum HTTPMethod: Sendable, Equatable {
    /// `GET`, with query items appended to the URL's query.
    case get([URLQueryItem] = [])
    /// `HEAD`: the response has headers and never a body.
    case head
    /// `DELETE`.
    case delete
    /// `POST` with an optional body.
    case post(RequestBody? = nil)
    /// `PUT` with an optional body.
    case put(RequestBody? = nil)
    /// `PATCH` with an optional body.
    case patch(RequestBody? = nil)
    /// Any other method, e.g. `OPTIONS`, sent as written. The name must be an RFC 9110 token;
    /// building the request fails with ``RequestError/invalidMethod(_:)`` otherwise.
    case custom(String, body: RequestBody? = nil)

    /// `OPTIONS` without a body.
    public static let options = HTTPMethod.custom("OPTIONS")

    // The articles write `method: .post` for a method without a payload, as their enums have
    // no associated values; these make that spelling mean what it says.

    /// `GET` without query items: `.get([])`.
    public static let get = HTTPMethod.get([])
    /// `POST` without a body: `.post(nil)`.
    public static let post = HTTPMethod.post(nil)
    /// `PUT` without a body: `.put(nil)`.
    public static let put = HTTPMethod.put(nil)
    /// `PATCH` without a body: `.patch(nil)`.
    public static let patch = HTTPMethod.patch(nil)

    /// The method name as sent on the request line.
    public var name: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .delete: "DELETE"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .custom(let name, _): name
        }
    }

    /// The body this method carries, if any.
    package var body: RequestBody? {
        switch self {
        case .post(let body), .put(let body), .patch(let body), .custom(_, let body): body
        case .get, .head, .delete: nil
        }
    }

    /// The query items this method carries (only `GET` has any).
    package var queryItems: [URLQueryItem] {
        if case .get(let items) = self { items } else { [] }
    }
}
