import Foundation

/// One `Set-Cookie` field value split as RFC 6265 §5.2 says: a name-value pair, then
/// attributes separated by ";". Only the syntax: what the attributes mean is
/// ``CookieAttributes``'s business.
///
/// Splitting happens on octets, not `Character`s: a combining mark after ";" would otherwise
/// merge with it into one grapheme and hide the separator.
struct SetCookieString {
    struct Attribute {
        var name: String
        var value: String
    }

    var name: String
    var value: String
    var attributes: [Attribute]

    /// Fails where §5.2 says to ignore the whole string: no "=" in the name-value pair, or an
    /// empty name.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        let semicolon = UInt8(ascii: ";")
        let pairEnd = bytes.firstIndex(of: semicolon) ?? bytes.endIndex
        guard let pair = SetCookieString.nameAndValue(bytes[..<pairEnd], requiringEquals: true),
              !pair.name.isEmpty
        else { return nil }
        name = pair.name
        value = pair.value
        // An empty attribute, as after a trailing ";", has an empty name and is ignored.
        attributes = bytes[pairEnd...].dropFirst()
            .split(separator: semicolon, omittingEmptySubsequences: false)
            .compactMap { SetCookieString.nameAndValue($0, requiringEquals: false) }
            .map { Attribute(name: $0.name, value: $0.value) }
    }

    /// Splits at the first "=" and trims both sides. Without an "=", an attribute is all name
    /// and an empty value; a name-value pair is refused.
    private static func nameAndValue(
        _ bytes: ArraySlice<UInt8>,
        requiringEquals: Bool
    ) -> (name: String, value: String)? {
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
            return requiringEquals ? nil : (trimmed(bytes), "")
        }
        return (trimmed(bytes[..<equals]), trimmed(bytes[(equals + 1)...]))
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.trimmingCookieWhitespace, as: UTF8.self)
    }
}

extension ArraySlice<UInt8> {
    /// Without leading and trailing WSP (SP and HTAB), the only whitespace RFC 6265 trims;
    /// other spaces are data.
    var trimmingCookieWhitespace: ArraySlice<UInt8> {
        let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = firstIndex(where: { !isWhitespace($0) }),
              let last = lastIndex(where: { !isWhitespace($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }
}

/// The attributes of a `Set-Cookie` string as §5.2.1 to §5.2.6 interpret them, the last
/// occurrence of each winning (§5.3 uses "the last attribute … with an attribute-name of").
/// Unknown attributes, and known ones with unusable values, are skipped.
struct CookieAttributes {
    /// RFC 6265bis §5.6: an attribute value longer than this is ignored, so a server cannot
    /// make the store keep an arbitrarily long `Path` or `Domain`.
    static let maximumValueLength = 1024

    var expires: Date?
    var maxAgeExpiry: Date?
    /// Lower case, without a leading "."; empty when the last `Domain` was just ".".
    var domain: String?
    var path: String?
    var isSecure = false
    var isHTTPOnly = false
    var sameSite: Cookie.SameSite?

    init(_ attributes: [SetCookieString.Attribute], defaultPath: String, now: Date) {
        for attribute in attributes where attribute.value.utf8.count <= CookieAttributes.maximumValueLength {
            take(attribute, defaultPath: defaultPath, now: now)
        }
    }

    /// §5.3 step 3: `Max-Age` wins over `Expires` wherever each appears.
    var expiry: Date? {
        maxAgeExpiry ?? expires
    }

    private mutating func take(_ attribute: SetCookieString.Attribute, defaultPath: String, now: Date) {
        let value = attribute.value
        switch attribute.name.lowercased() {
        case "expires":
            // §5.2.1: an unparsable date leaves any earlier `Expires` in force, and a date past
            // the last one the store represents is clamped to it, as `Max-Age` is.
            if let date = CookieDate.parse(value) { expires = min(date, .distantFuture) }
        case "max-age":
            if let seconds = CookieAttributes.deltaSeconds(value) {
                maxAgeExpiry = CookieAttributes.expiry(afterDeltaSeconds: seconds, from: now)
            }
        case "domain":
            // §5.2.3 leaves an empty value undefined and recommends ignoring the attribute.
            guard !value.isEmpty else { return }
            let withoutDot = value.utf8.first == UInt8(ascii: ".") ? value.utf8.dropFirst() : value.utf8[...]
            domain = String(Substring(withoutDot)).lowercased()
        case "path":
            // §5.2.4: a value that is not an absolute path still counts, as the default path.
            path = value.utf8.first == UInt8(ascii: "/") ? value : defaultPath
        case "secure":
            isSecure = true
        case "httponly":
            isHTTPOnly = true
        case "samesite":
            sameSite = Cookie.SameSite(attributeValue: value)
        default:
            break
        }
    }

    /// §5.2.2: an optional "-" and digits, nothing else ("+1", "1.5" and "" are ignored).
    /// A run of digits too long for `Int` saturates instead of being refused.
    private static func deltaSeconds(_ value: String) -> Int? {
        let isNegative = value.utf8.first == UInt8(ascii: "-")
        let digits = isNegative ? value.utf8.dropFirst() : value.utf8[...]
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        // Only digits are left, so `Int` fails here on overflow alone.
        let magnitude = Int(Substring(digits)) ?? .max
        return isNegative ? -magnitude : magnitude
    }

    /// §5.2.2: zero or less means "the earliest representable time"; beyond the last date
    /// the store represents, the expiry is clamped there (§5.2.1 does the same for `Expires`).
    private static func expiry(afterDeltaSeconds seconds: Int, from now: Date) -> Date {
        guard seconds > 0 else { return .distantPast }
        return min(now.addingTimeInterval(TimeInterval(seconds)), .distantFuture)
    }
}
