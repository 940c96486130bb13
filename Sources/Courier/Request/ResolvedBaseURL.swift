import Foundation

/// A base URL taken apart once, so that ``APIClient`` resolves each request's path by appending
/// strings rather than by parsing the base with `URLComponents` again: that cost ten heap
/// allocations on every request.
///
/// It writes the URL ``Endpoint/url(relativeTo:)`` builds, byte for byte, for the common case:
/// an http or https base with a host, and a relative path of ASCII characters. Anything else
/// (an absolute URL, a path with other characters, a base it cannot take apart, a URL Foundation
/// refuses) goes through ``Endpoint/url(relativeTo:)`` itself, errors included.
struct ResolvedBaseURL: Sendable {
    let url: URL
    /// nil when the base is not one the direct route takes.
    private let parts: Parts?

    init(_ url: URL) {
        self.url = url
        parts = Parts(url)
    }

    /// The URL of `endpoint` relative to this base, as ``Endpoint/url(relativeTo:)`` gives it.
    func url(for endpoint: Endpoint) throws(RequestError) -> URL {
        if let parts, let url = parts.url(for: endpoint) { return url }
        return try endpoint.url(relativeTo: url)
    }

    /// Whether `endpoint` takes the direct route, for tests.
    func resolvesDirectly(_ endpoint: Endpoint) -> Bool {
        parts?.url(for: endpoint) != nil
    }
}

extension ResolvedBaseURL {
    /// The base as `URLComponents` reads it, each part percent-encoded as it writes it.
    private struct Parts: Sendable {
        /// `scheme://authority`, the base's path with its trailing slashes removed, then `/`:
        /// what a relative path is appended to.
        var directory: String
        /// `scheme://authority` and the base's path, or `/` when it has none: the URL of an
        /// empty relative path.
        var document: String
        /// nil for no query, "" for a bare `?`.
        var query: String?

        init?(_ url: URL) {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
                  let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = components.host, !host.isEmpty
            else { return nil }
            let path = components.percentEncodedPath
            query = components.percentEncodedQuery
            // Byte-wise joining matches the String operations of Endpoint's route only for ASCII.
            guard path.utf8.allSatisfy({ $0 < 0x80 }), (query ?? "").utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
            components.percentEncodedPath = ""
            components.percentEncodedQuery = nil
            components.fragment = nil
            guard let origin = components.string else { return nil }
            var basePath = path[...]
            while basePath.last == "/" { basePath.removeLast() }
            directory = origin + basePath + "/"
            document = origin + (path.isEmpty ? "/" : path)
        }

        /// Endpoint's route written out: split the fragment and a written query off the path,
        /// join the paths with one slash, then the base's query, the written one and the
        /// items, joined with `&`, skipping empty ones. nil where that route must decide.
        ///
        /// The path is read as bytes, by indices into its UTF-8: it is ASCII, and a walk by
        /// `Character` would segment it into graphemes first.
        func url(for endpoint: Endpoint) -> URL? {
            let path = endpoint.path
            let text = path.utf8
            guard text.allSatisfy({ $0 < 0x80 }), !Self.isAbsolute(text) else { return nil }
            let end = text.firstIndex(of: UInt8(ascii: "#")) ?? text.endIndex
            let mark = text[..<end].firstIndex(of: UInt8(ascii: "?"))
            let pathEnd = mark ?? end
            var start = text.startIndex
            while start < pathEnd, text[start] == UInt8(ascii: "/") { start = text.index(after: start) }

            var result = start == pathEnd ? document : directory
            result.reserveCapacity(result.utf8.count + text.count + (query?.utf8.count ?? 0) + 2)
            if start != pathEnd {
                PercentEncoding.append(path[start..<pathEnd], allowing: PercentEncoding.pathBytes, to: &result)
            }

            var hasQuery = false
            func separate() {
                result += hasQuery ? "&" : "?"
                hasQuery = true
            }
            if let query, !query.isEmpty {
                separate()
                result += query
            }
            if let mark, text.index(after: mark) < end {
                separate()
                PercentEncoding.append(path[text.index(after: mark)..<end], allowing: PercentEncoding.rawQueryBytes, to: &result)
            }
            let items = endpoint.queryItems
            // The items' query is empty only for one item with an empty name and no value.
            if !items.isEmpty, !(items.count == 1 && items[0].name.isEmpty && items[0].value == nil) {
                separate()
                PercentEncoding.appendQuery(items, to: &result)
            }
            // Every part was empty: the base's own query stays, a bare `?` included.
            if !hasQuery, query != nil { result += "?" }
            return URL(string: result)
        }

        /// ``Endpoint/isAbsolute`` for an ASCII path: a `scheme://` prefix, the scheme a letter
        /// followed by letters, digits, `+`, `-` and `.`.
        private static func isAbsolute(_ path: String.UTF8View) -> Bool {
            var index = path.startIndex
            while index != path.endIndex {
                if path[index] == UInt8(ascii: ":"), path[index...].starts(with: "://".utf8) {
                    let scheme = path[..<index]
                    guard let first = scheme.first, isLetter(first) else { return false }
                    return scheme.allSatisfy { isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) }
                }
                index = path.index(after: index)
            }
            return false
        }

        private static func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
