import ArgumentParser
import Courier
import Foundation

/// Parses a command-line URL: absolute, http or https, with a host. Anything else is refused
/// naming the text, before any transport is created: a usage error (exit 64) for most commands,
/// curl's exit code for `courier request` (``curlExitCode(rejecting:)``).
enum RequestURL {
    static func parse(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw ValidationError("invalid URL \(redactedURLText(text).debugDescription): expected an absolute http:// or https:// URL")
        }
        return url
    }

    /// curl's exit code for a URL ``parse(_:)`` refuses: 1 ("unsupported protocol") for a scheme
    /// other than http and https, 3 ("URL malformed") for the rest.
    static func curlExitCode(rejecting text: String) -> Int32 {
        guard let scheme = URL(string: text)?.scheme?.lowercased(), scheme != "http", scheme != "https" else { return 3 }
        return 1
    }
}
