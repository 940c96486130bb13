import Foundation

/// Where a request goes: a path resolved against a base URL, or an absolute URL, plus query items.
///
/// Paths are written unencoded; Courier percent-encodes them and the query when it builds the
/// URL, and fails with a ``RequestError`` instead of crashing when no valid URL results.
///
/// ```swift
/// let base = URL(string: "https://api.example.com/v1/")!
/// try Endpoint("/users/42", queryItems: [URLQueryItem(name: "fields", value: "name,email")])
///     .url(relativeTo: base)
/// // https://api.example.com/v1/users/42?fields=name%2Cemail
/// ```
///
/// Joining never doubles or drops a slash (`v1/` + `/users` and `v1` + `users` both give
/// `v1/users`), a trailing slash on the path is kept, a query written in the path (`"search?q=a"`)
/// is kept, and query items are appended after any query the base URL or path already has.
public struct Endpoint: Sendable, Hashable {
    /// A path relative to the base URL (`"users/42"`), or an absolute `http(s)://` (or
    /// `http+unix://`) URL string.
    public var path: String
    /// Items appended to the URL's query, in order.
    public var queryItems: [URLQueryItem]

    /// Creates an endpoint from a path or absolute URL string.
    public init(_ path: String, queryItems: [URLQueryItem] = []) {
        self.path = path
        self.queryItems = queryItems
    }

    /// Creates an endpoint for an absolute URL.
    public init(url: URL, queryItems: [URLQueryItem] = []) {
        self.init(url.absoluteString, queryItems: queryItems)
    }

    /// Whether ``path`` is an absolute URL (it has a `scheme://` prefix).
    package var isAbsolute: Bool {
        guard let separator = path.range(of: "://") else { return false }
        let scheme = path[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// Builds the URL, resolving a relative ``path`` against `baseURL`.
    ///
    /// - Throws: ``RequestError/missingBaseURL(path:)`` for a relative path without a base URL,
    ///   ``RequestError/unsupportedScheme(_:url:)`` for a scheme other than http, https,
    ///   http+unix or https+unix, and
    ///   ``RequestError/invalidURL(_:)`` when no URL with a host can be formed.
    package func url(relativeTo baseURL: URL? = nil) throws(RequestError) -> URL {
        var components: URLComponents
        var extraQuery: [String] = []
        if isAbsolute {
            guard let parsed = URLComponents(string: path) else { throw .invalidURL(path) }
            components = parsed
        } else {
            guard let baseURL else { throw .missingBaseURL(path: path) }
            guard let base = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else {
                throw .invalidURL(baseURL.absoluteString)
            }
            components = base
            let (relativePath, writtenQuery) = Self.split(path)
            components.percentEncodedPath = Self.join(base.percentEncodedPath, PercentEncoding.path(relativePath))
            if let writtenQuery { extraQuery.append(PercentEncoding.rawQuery(writtenQuery)) }
        }
        components.fragment = nil
        let scheme = components.scheme?.lowercased() ?? ""
        // A Unix socket URL is as sendable as any: the transport that cannot reach a socket
        // refuses it by name, before anything is sent.
        guard scheme == "http" || scheme == "https" || URL.unixSocketSchemes.contains(scheme) else {
            throw .unsupportedScheme(scheme, url: isAbsolute ? path : (baseURL?.absoluteString ?? path))
        }
        guard let host = components.host, !host.isEmpty else {
            throw .invalidURL(isAbsolute ? path : (baseURL?.absoluteString ?? path))
        }
        if !queryItems.isEmpty { extraQuery.append(PercentEncoding.query(queryItems)) }
        let query = ([components.percentEncodedQuery].compactMap { $0 } + extraQuery)
            .filter { !$0.isEmpty }
            .joined(separator: "&")
        components.percentEncodedQuery = query.isEmpty ? components.percentEncodedQuery : query
        guard let url = components.url else { throw .invalidURL(path) }
        return url
    }

    /// Splits `"a/b?x=1#frag"` into `("a/b", "x=1")`; the fragment is never sent.
    private static func split(_ path: String) -> (path: String, query: String?) {
        let withoutFragment = path.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query = parts.count > 1 ? String(parts[1]) : nil
        return (String(parts.first ?? ""), query)
    }

    private static func join(_ basePath: String, _ relativePath: String) -> String {
        let trimmedRelative = relativePath.drop { $0 == "/" }
        var base = basePath
        while base.hasSuffix("/") { base.removeLast() }
        if trimmedRelative.isEmpty { return basePath.isEmpty ? "/" : basePath }
        return base + "/" + trimmedRelative
    }
}
