import Foundation

/// A request exactly as the server received it, head and complete body.
///
/// The server records one after the last byte of the body arrives and before it answers,
/// so once a client has a response, ``TestServer/lastRequest`` already describes the
/// request that produced it.
public struct RecordedRequest: Sendable, Equatable {
    /// The method as sent, for example `GET` or a custom token such as `PURGE`.
    public var method: String
    /// The request target exactly as sent, for example `/get?a=1`.
    public var uri: String
    /// The part of ``uri`` before `?`, still percent-encoded. For an absolute-form target
    /// (`http://host/path`) the scheme and authority are dropped.
    public var path: String
    /// The part of ``uri`` after the first `?`, still percent-encoded; `nil` when there is no
    /// `?` and empty when the `?` is followed by nothing.
    public var query: String?
    /// The header fields in the order received, names spelled as received.
    public var headers: [HTTPHeaderField]
    /// The request body after transfer decoding (chunks joined), not content decoding.
    public var body: Data

    /// Creates a recorded request, splitting `uri` into ``path`` and ``query``.
    public init(method: String, uri: String, headers: [HTTPHeaderField] = [], body: Data = Data()) {
        self.method = method
        self.uri = uri
        (self.path, self.query) = Self.split(target: uri)
        self.headers = headers
        self.body = body
    }

    /// All values of the header `name`, compared case-insensitively, in received order.
    public func values(for name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The first value of the header `name`, compared case-insensitively.
    public func value(for name: String) -> String? {
        values(for: name).first
    }

    private static func split(target: String) -> (path: String, query: String?) {
        var rest = Substring(target)
        // Proxies send absolute-form targets; routing only cares about the path.
        if let schemeEnd = rest.range(of: "://"), rest[..<schemeEnd.lowerBound].allSatisfy(\.isLetter) {
            let afterScheme = rest[schemeEnd.upperBound...]
            rest = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterScheme[$0...] } ?? "/"
        }
        guard let questionMark = rest.firstIndex(of: "?") else {
            return (String(rest), nil)
        }
        return (String(rest[..<questionMark]), String(rest[rest.index(after: questionMark)...]))
    }
}
