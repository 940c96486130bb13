/// One entry of the route table: a path pattern and the function that answers it.
///
/// Patterns are `/`-separated segments: a literal, `{name}` capturing one segment, or a final
/// `*` matching whatever remains (including nothing after a trailing slash).
struct Route: Sendable {
    typealias Handler = @Sendable (RouteRequest) -> RouteAction

    private enum Segment: Sendable {
        case literal(String)
        case parameter(String)
        case rest
    }

    private let segments: [Segment]
    let handler: Handler

    init(_ pattern: String, _ handler: @escaping Handler) {
        self.segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { part in
            if part == "*" { return .rest }
            if part.first == "{", part.last == "}" { return .parameter(String(part.dropFirst().dropLast())) }
            return .literal(String(part))
        }
        self.handler = handler
    }

    /// The captures if `path` matches, otherwise `nil`.
    func match(_ path: String) -> [String: String]? {
        guard path.first == "/" else { return nil }
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var captures: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .rest:
                return parts.count > index ? captures : nil
            case .literal(let literal):
                guard index < parts.count, parts[index] == literal else { return nil }
            case .parameter(let name):
                guard index < parts.count else { return nil }
                captures[name] = parts[index].percentDecodedLeniently
            }
        }
        return parts.count == segments.count ? captures : nil
    }
}
