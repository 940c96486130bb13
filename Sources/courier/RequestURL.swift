import ArgumentParser
import Courier
import Foundation

/// Parses a command-line URL: absolute, http or https, with a host. Anything else is a usage
/// error (exit 64) naming the text, before any transport is created.
enum RequestURL {
    static func parse(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw ValidationError("invalid URL \(redactedURLText(text).debugDescription): expected an absolute http:// or https:// URL")
        }
        return url
    }
}
