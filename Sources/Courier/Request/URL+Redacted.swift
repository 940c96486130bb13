import Foundation

// Error descriptions and tool output end up in logs, so a password given in a URL's user
// information never goes into a message: it reads `xxxxx` there, as Go's `URL.Redacted()` has it.
// The URL values errors carry (`NSURLErrorFailingURLErrorKey`) keep it, for code that retries.

extension URL {
    /// The URL as text for a message: `absoluteString`, with the password, if any, replaced by
    /// `xxxxx` (`http://alice:xxxxx@host/`).
    package var redactedString: String {
        redactingPassword(in: absoluteString)
    }
}

/// `text`, a URL or the text of one that may not parse, with the password in its user
/// information replaced by `xxxxx`; any other text comes back unchanged.
///
/// Read from the text itself rather than through `URLComponents`, so that text that is not a
/// valid URL (what ``RequestError/invalidURL(_:)`` reports) is redacted too, and a URL's other
/// characters come back exactly as written.
package func redactingPassword(in text: String) -> String {
    let authorityStart: String.Index
    if let separator = text.range(of: "://") {
        authorityStart = separator.upperBound
    } else if text.hasPrefix("//") {
        authorityStart = text.index(text.startIndex, offsetBy: 2)
    } else {
        return text
    }
    let rest = text[authorityStart...]
    let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    // The user information ends at the authority's last "@": a host holds none.
    guard let at = authority.lastIndex(of: "@"),
          let colon = authority[..<at].firstIndex(of: ":")
    else { return text }
    return String(text[...colon]) + "xxxxx" + String(text[at...])
}
