/// A header left out of every parity comparison, with the reason it cannot be expected to match
/// between two exchanges that are otherwise identical.
///
/// The list is ``all``: the only place a header is ignored, so a comparison never hides a
/// difference silently.
public struct IgnoredHeader: Sendable, Hashable {
    /// The header name, lowercased.
    public var name: String
    /// Why two otherwise identical exchanges may carry different values.
    public var reason: String

    /// Every ignored header. Only values that depend on *when* or *on which connection* an
    /// exchange happened belong here; anything a transport chooses must be compared.
    public static let all: [IgnoredHeader] = [
        IgnoredHeader(
            name: "date",
            reason: "The second the server answered: the two transports' requests are sent one after the other."
        ),
        IgnoredHeader(
            name: "age",
            reason: "Seconds a cached response has spent in a cache, which grow between the two requests."
        ),
        IgnoredHeader(
            name: "expires",
            reason: "Servers commonly compute it from the current time (\"now + max-age\")."
        ),
        IgnoredHeader(
            name: "keep-alive",
            reason: "`timeout`/`max` count what is left of the connection, and each transport has its own connection pool."
        ),
        IgnoredHeader(
            name: "server-timing",
            reason: "Durations the server measured for this one exchange."
        ),
    ]

    /// The lowercased names in ``all``.
    public static let names: Set<String> = Set(all.map(\.name))
}
