import Foundation

/// What a resumed download sends in `If-Range` so that a server appends only to bytes of the
/// same representation (RFC 9110 §13.1.5): a strong entity tag, else a `Last-Modified` date
/// that is strong by §8.8.2.2.
package enum ResumeValidator: Sendable, Equatable {
    /// A strong `ETag`, quotes included, as the server sent it.
    case entityTag(String)
    /// `Last-Modified` exactly as the server sent it: §13.1.5 has the server compare the text.
    case lastModified(String)

    /// The longest validator kept: a server's longer one is not stored, so that partial file is
    /// not resumed.
    package static let maximumLength = 1024

    /// The `If-Range` value.
    package var fieldValue: String {
        switch self {
        case .entityTag(let tag): tag
        case .lastModified(let date): date
        }
    }

    /// The validator a response offers for resuming its body later: its `ETag` when that is one
    /// strong entity tag; else its `Last-Modified` when a `Date` at least one second later
    /// shows it strong (§8.8.2.2); else `nil`, and the body cannot be resumed safely.
    package init?(_ fields: HeaderFields) {
        if let tag = fields["ETag"], Self.isStrongEntityTag(tag) {
            self = .entityTag(tag)
            return
        }
        guard let modified = fields["Last-Modified"], let sent = fields["Date"],
            Self.isFieldSafe(modified), let modifiedDate = CookieDate.parse(modified), let sentDate = CookieDate.parse(sent),
            sentDate.timeIntervalSince(modifiedDate) >= 1
        else { return nil }
        self = .lastModified(modified)
    }

    /// `"…"` with no quote, control or non-ASCII byte inside (`etagc` of §8.8.3), so never `W/`.
    private static func isStrongEntityTag(_ tag: String) -> Bool {
        let bytes = Array(tag.utf8)
        guard bytes.count >= 2, bytes.count <= maximumLength, bytes.first == 0x22, bytes.last == 0x22 else { return false }
        return bytes.dropFirst().dropLast().allSatisfy { $0 == 0x21 || ($0 >= 0x23 && $0 <= 0x7E) }
    }

    /// Visible ASCII and spaces, within the length kept: what can go back in a field and a record line.
    private static func isFieldSafe(_ text: String) -> Bool {
        text.utf8.count <= maximumLength && text.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
    }
}
