/// The HTTP version an exchange was answered in, as the engine spoke it.
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    package var major: Int
    package var minor: Int

    /// A version from its numbers.
    package init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    public static let http2 = HTTPVersion(major: 2, minor: 0)
    public static let http3 = HTTPVersion(major: 3, minor: 0)

    /// `HTTP/1.1`, `HTTP/2`, as a status line and libcurl write them.
    public var description: String {
        major >= 2 && minor == 0 ? "HTTP/\(major)" : "HTTP/\(major).\(minor)"
    }

    /// The version a status line starts with (`HTTP/1.1`, `HTTP/2`, `HTTP/2.0`), or nil when it
    /// is not one.
    package init?(statusLineVersion text: some StringProtocol) {
        // Every response's status line is read here: the usual two without splitting into an array.
        if text == "HTTP/1.1" {
            self = .http1_1
            return
        }
        if text == "HTTP/2" {
            self = .http2
            return
        }
        guard text.hasPrefix("HTTP/") else { return nil }
        let numbers = text.dropFirst(5).split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let major = numbers.first.flatMap({ Int($0) }), major >= 0 else { return nil }
        let minor = numbers.count > 1 ? Int(numbers[1]) : 0
        guard let minor, minor >= 0 else { return nil }
        self.init(major: major, minor: minor)
    }
}
