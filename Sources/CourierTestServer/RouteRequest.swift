/// The request as a route handler sees it.
struct RouteRequest: Sendable {
    /// The request as recorded.
    var recorded: RecordedRequest
    /// The method to answer as: `GET` for a `HEAD` request, so both get identical headers.
    var method: String
    /// The `{name}` captures of the route pattern, percent-decoded.
    var parameters: [String: String]
    /// `http://host:port` of the listener this request came in on, for absolute URLs.
    var baseURL: String
    /// Bytes of a body counted and dropped as it arrived (`/sink`) rather than recorded.
    var discardedBodyBytes = 0
    /// Counts a request for a key and returns its number, 1 for the first, per server.
    var visit: @Sendable (String) -> Int = { _ in 1 }

    /// The first value of the query parameter `name`.
    func query(_ name: String) -> String? {
        recorded.queryItems.first { $0.name == name }?.value
    }

    /// The capture `name` as an integer within `range`, or `nil` if missing, not a number or
    /// out of range: the caller answers 400.
    func integer(_ name: String, in range: ClosedRange<Int>) -> Int? {
        guard let text = parameters[name], let value = Int(text), range.contains(value) else { return nil }
        return value
    }
}
