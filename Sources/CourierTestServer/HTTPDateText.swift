import Foundation

/// IMF-fixdate (RFC 9110 §5.6.7), the one form of HTTP-date a server sends: for `Date`,
/// `Expires` and `Last-Modified`, and for tests that write those fields themselves.
public enum HTTPDateText {
    /// `date` as `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ date: Date) -> String {
        formatter().string(from: date)
    }

    /// The instant an IMF-fixdate names, or nil when `text` is not one.
    public static func parse(_ text: String) -> Date? {
        formatter().date(from: text)
    }

    /// A formatter per use: DateFormatter is not safe to share between the server's threads.
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
