import Foundation

extension Data {
    /// Short bodies that are text are shown whole, so a report reads like the exchange.
    private static let longestBodyShownWhole = 256

    /// The body as a report shows it: whole when it is short text, otherwise its length and the
    /// byte at `offset`, where it first differs from the other transport's body.
    func parityDescription(differingAt offset: Int) -> String {
        if count <= Self.longestBodyShownWhole, let text = String(validating: self, as: UTF8.self) {
            return text
        }
        let byte = offset < count ? "0x" + String(self[index(startIndex, offsetBy: offset)], radix: 16) : "end"
        return "\(count) bytes; at offset \(offset): \(byte)"
    }
}
