import ArgumentParser
import Courier
import Foundation

/// Parses a command-line URL: absolute, http or https (or, for `courier ws`, ws or wss too),
/// with a host. Anything else is refused naming the text, before any transport is created: a
/// usage error (exit 64) for most commands, curl's exit code for `courier request` and
/// `courier ws` (``curlExitCode(rejecting:schemes:)``), with the line
/// ``refusal(of:method:schemes:)``.
enum RequestURL {
    /// The schemes `courier request` sends.
    static let httpSchemes = ["http", "https"]
    /// The schemes `courier ws` opens: a WebSocket's own, and their http forms, as
    /// `HTTPTransport.webSocket(for:)` takes them.
    static let webSocketSchemes = ["ws", "wss", "http", "https"]

    static func parse(_ text: String, schemes: [String] = httpSchemes) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme),
              let host = url.host, !host.isEmpty
        else {
            throw ValidationError("invalid URL \(redactedURLText(text).debugDescription): \(expectation(schemes))")
        }
        return url
    }

    /// What a URL must be to be sent: `expected an absolute http:// or https:// URL`.
    private static func expectation(_ schemes: [String]) -> String {
        let expected = schemes.map { "\($0)://" }
        let listed = expected.dropLast().joined(separator: ", ") + (expected.count > 1 ? " or " : "") + (expected.last ?? "")
        return "expected an absolute \(listed) URL"
    }

    /// What `courier request` and `courier ws` print for a URL ``parse(_:schemes:)`` refuses:
    /// the method and the URL, as every failure's line begins, the text quoted since it may
    /// not read as one (`not a url`, or nothing), then why.
    static func refusal(of text: String, method: String, schemes: [String] = httpSchemes) -> String {
        "\(method) \(redactedURLText(text).debugDescription): invalid URL: \(expectation(schemes))"
    }

    /// curl's exit code for a URL ``parse(_:schemes:)`` refuses: 1 ("unsupported protocol") for
    /// a scheme not in `schemes`, 3 ("URL malformed") for the rest.
    static func curlExitCode(rejecting text: String, schemes: [String] = httpSchemes) -> Int32 {
        guard let scheme = URL(string: text)?.scheme?.lowercased(), !schemes.contains(scheme) else { return 3 }
        return 1
    }
}
