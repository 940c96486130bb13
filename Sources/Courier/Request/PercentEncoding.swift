import Foundation

/// Percent-encoding for the parts Courier builds itself.
///
/// Foundation's `URLQueryItem` encoding leaves `+`, `&`, `=` and `;` in values alone, which
/// servers then read as a space or a separator; like Alamofire, Courier encodes every
/// sub-delimiter in query names and values and keeps only unreserved characters, `/` and `?`.
enum PercentEncoding {
    private static func allowed(_ characters: String) -> CharacterSet {
        var set = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        set.insert(charactersIn: characters)
        return set
    }

    /// Unreserved characters plus `/?` (RFC 3986 §3.4 allows both in a query).
    static let queryComponentAllowed = allowed("/?")
    /// `pchar` from RFC 3986 §3.3 plus `/`, without `%`: paths are given unencoded.
    static let pathAllowed = allowed("!$&'()*+,;=:@/")
    /// What may stay unencoded in a query the caller wrote by hand (`a=1&b=2`): everything a
    /// query allows except `#` and `%`-that-is-not-an-escape is left as written.
    static let rawQueryAllowed = allowed("!$&'()*+,;=:@/?%")

    static func component(_ text: String) -> String {
        // Cannot fail for valid Swift strings (they are valid Unicode); fall back defensively.
        text.addingPercentEncoding(withAllowedCharacters: queryComponentAllowed) ?? ""
    }

    static func path(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: pathAllowed) ?? ""
    }

    static func rawQuery(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: rawQueryAllowed) ?? ""
    }

    /// `name=value&…`; an item with a `nil` value is sent as the bare name.
    static func query(_ items: [URLQueryItem]) -> String {
        items.map { item in
            let name = component(item.name)
            guard let value = item.value else { return name }
            return "\(name)=\(component(value))"
        }.joined(separator: "&")
    }
}
