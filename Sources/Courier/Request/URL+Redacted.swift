import Foundation

// One rule for every URL Courier writes into text a person or a log reads: error descriptions,
// the `courier` tool's output, log lines, metric dimensions and trace attributes. A password in
// the user information reads `xxxxx`, as Go's `URL.Redacted()` has it; so does the value of a
// query item whose name looks like a secret; the fragment, which never goes on the wire, is
// dropped. The URL values errors carry (`NSURLErrorFailingURLErrorKey`) keep everything, for
// code that retries.

extension URL {
    /// The URL as text for a message, a log line, a metric or a trace attribute: its
    /// `absoluteString` with the password, if any, replaced by `xxxxx`
    /// (`http://alice:xxxxx@host/`), the value of every query item whose name looks like a
    /// secret replaced by `xxxxx`, and no fragment.
    ///
    /// A name looks like a secret when, lowercased and without `-` and `_`, it contains `token`,
    /// `key`, `secret`, `password`, `passwd`, `signature`, `credential`, `auth` or `session`, or is
    /// `sig`, `pwd` or `code` (an OAuth authorization code). That over-redacts a `keyword` or a
    /// `monkey` rather than miss an `X-Amz-Signature` or an `api_key`. Other query values stay, since
    /// they are what tells two requests to one path apart. The fragment is dropped: an OAuth
    /// implicit grant puts its `access_token` there.
    package var redactedString: String {
        redactedURLText(absoluteString)
    }
}

/// `text`, a URL or the text of one that may not parse (a relative path with its query too),
/// redacted as ``URL/redactedString`` redacts a URL.
package func redactedURLText(_ text: String) -> String {
    redactingQuerySecrets(in: redactingPassword(in: text))
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

/// `text`, a URL as text, with every secret-looking query value (see ``URL/redactedString``)
/// replaced by `xxxxx` and without a fragment.
package func redactingQuerySecrets(in text: String) -> String {
    let withoutFragment = text.firstIndex(of: "#").map { text[..<$0] } ?? text[...]
    guard let questionMark = withoutFragment.firstIndex(of: "?") else { return String(withoutFragment) }
    let query = withoutFragment[withoutFragment.index(after: questionMark)...]
    var redacted = String(withoutFragment[...questionMark])
    var first = true
    for item in query.split(separator: "&", omittingEmptySubsequences: false) {
        if !first { redacted += "&" }
        first = false
        guard let equals = item.firstIndex(of: "="), isSecretQueryName(item[..<equals]) else {
            redacted += item
            continue
        }
        redacted += item[...equals] + "xxxxx"
    }
    return redacted
}

/// Whether a query item's name, as written in the URL, names a secret.
package func isSecretQueryName(_ name: Substring) -> Bool {
    let decoded = (String(name).removingPercentEncoding ?? String(name)).lowercased()
    let folded = decoded.filter { $0 != "-" && $0 != "_" }
    if ["sig", "pwd", "code"].contains(folded) { return true }
    return ["token", "key", "secret", "password", "passwd", "signature", "credential", "auth", "session"]
        .contains { folded.contains($0) }
}

/// `text` with every `scheme://…` run in it redacted as ``URL/redactedString`` redacts a URL.
/// A run ends at whitespace or at a character that cannot end a URL in prose: a quote, a closing
/// bracket, or `>`.
package func redactingURLs(in text: String) -> String {
    guard text.contains("://") else { return text }
    let characters = Array(text)
    var result = ""
    var index = 0
    while index < characters.count {
        guard let separator = firstSchemeSeparator(in: characters, from: index) else {
            result += String(characters[index...])
            break
        }
        var start = separator
        while start > index, characters[start - 1].isASCII,
              characters[start - 1].isLetter || characters[start - 1].isNumber || "+-.".contains(characters[start - 1]) {
            start -= 1
        }
        var end = separator + 3
        while end < characters.count, !characters[end].isWhitespace, !"\"'()[]<>".contains(characters[end]) {
            end += 1
        }
        result += String(characters[index..<start])
        result += redactedURLText(String(characters[start..<end]))
        index = end
    }
    return result
}

private func firstSchemeSeparator(in characters: [Character], from start: Int) -> Int? {
    var index = start
    while index + 2 < characters.count {
        if characters[index] == ":", characters[index + 1] == "/", characters[index + 2] == "/" { return index }
        index += 1
    }
    return nil
}
