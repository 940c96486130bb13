import Foundation

extension StringProtocol {
    /// The text with percent-escapes decoded, or unchanged when an escape is malformed or
    /// decodes to invalid UTF-8: a test server should show what it got, not refuse it.
    var percentDecodedLeniently: String {
        let text = String(self)
        return text.removingPercentEncoding ?? text
    }
}
