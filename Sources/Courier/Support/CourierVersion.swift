import Foundation

/// Courier's version, `major.minor.patch` as in its release tag, e.g. `"0.1.0"`.
///
/// Both transports name it in the `User-Agent` they send when a request sets none
/// (`<process name> Courier/0.1.0`), and `courier --version` prints it.
public let courierVersion = "0.1.0"

/// The `User-Agent` both transports send when a request sets none.
///
/// The process's name comes first, as URLSession and FoundationNetworking put the app's, so a
/// server's logs tell apps apart; then Courier and its version, never the engine's: the same
/// request reads the same on either transport, and servers that answer `curl/…` with plain text
/// treat an app as an app.
package enum DefaultUserAgent {
    /// `<process name> Courier/<courierVersion>`, or `Courier/<courierVersion>` for a process
    /// without a name.
    package static let value: String = {
        let product = productToken(ProcessInfo.processInfo.processName)
        return product.isEmpty ? "Courier/\(courierVersion)" : "\(product) Courier/\(courierVersion)"
    }()

    /// `name` as an RFC 9110 token: a character a token cannot hold (a space, a slash, a
    /// non-ASCII letter) becomes `-`, so the field always parses as products.
    package static func productToken(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { isTokenCharacter($0) ? $0 : "-" }))
    }

    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": true
        default: false
        }
    }
}
