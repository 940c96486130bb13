import Foundation

/// The same percent-encoding as ``PercentEncoding``, over UTF-8 bytes and into a `String` the
/// caller is building, for the URLs ``ResolvedBaseURL`` writes on every request.
///
/// `addingPercentEncoding(withAllowedCharacters:)` builds a `CharacterSet` lookup and a new
/// String for every part; every allowed character is ASCII, so a byte outside a 128-bit mask
/// is exactly one it would encode, as `%XX` with capital hex digits.
extension PercentEncoding {
    /// A set of ASCII bytes as a 128-bit mask.
    struct ASCIISet: Sendable {
        private var low: UInt64 = 0
        private var high: UInt64 = 0

        init(_ characters: String) {
            for byte in characters.utf8 where byte < 0x80 {
                if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
            }
        }

        func contains(_ byte: UInt8) -> Bool {
            if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
            if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
            return false
        }
    }

    private static let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    /// The bytes of ``queryComponentAllowed``.
    static let queryComponentBytes = ASCIISet(unreserved + "/?")
    /// The bytes of ``pathAllowed``.
    static let pathBytes = ASCIISet(unreserved + "!$&'()*+,;=:@/")
    /// The bytes of ``rawQueryAllowed``.
    static let rawQueryBytes = ASCIISet(unreserved + "!$&'()*+,;=:@/?%")

    /// Appends `text` to `result`, encoding every byte outside `allowed`.
    static func append(_ text: Substring, allowing allowed: ASCIISet, to result: inout String) {
        // Most parts need no escape: appended whole, with no per-byte work on the String.
        guard !text.utf8.allSatisfy(allowed.contains) else {
            result.append(contentsOf: text)
            return
        }
        for byte in text.utf8 {
            if allowed.contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(byte & 0x0F)]))
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Appends ``query(_:)`` of `items` to `result`.
    static func appendQuery(_ items: [URLQueryItem], to result: inout String) {
        for (index, item) in items.enumerated() {
            if index > 0 { result.append("&") }
            append(item.name[...], allowing: queryComponentBytes, to: &result)
            if let value = item.value {
                result.append("=")
                append(value[...], allowing: queryComponentBytes, to: &result)
            }
        }
    }
}
