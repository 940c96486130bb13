/// Checks UTF-8 a piece at a time, so a text message is refused (1007) at its first bad byte
/// rather than once it is whole, and a character may be split across fragments.
///
/// It accepts exactly the well-formed sequences of Unicode's Table 3-7: no overlong forms
/// (C0, C1, E0 80–9F, F0 80–8F), no surrogates (ED A0–BF), nothing past U+10FFFF (F4 90–BF,
/// F5–FF). A message that ends inside a character is invalid too: ask
/// ``isAtCharacterBoundary`` at the end.
struct WebSocketUTF8Validator: Sendable {
    /// Continuation bytes the current character still needs.
    private var remaining = 0
    /// The range the next continuation byte must fall in: narrower than 80–BF only for the
    /// second byte after E0, ED, F0 and F4.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    private var failed = false

    /// Whether every byte so far was well-formed UTF-8, each piece before included; false
    /// from the first bad byte on.
    mutating func validate(_ bytes: some Sequence<UInt8>) -> Bool {
        guard !failed else { return false }
        for byte in bytes where !accept(byte) {
            failed = true
            return false
        }
        return true
    }

    /// Whether the bytes so far end on a whole character (and were valid).
    var isAtCharacterBoundary: Bool { !failed && remaining == 0 }

    private mutating func accept(_ byte: UInt8) -> Bool {
        if remaining > 0 {
            guard byte >= lower, byte <= upper else { return false }
            remaining -= 1
            lower = 0x80
            upper = 0xBF
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: remaining = 1
        case 0xE0: remaining = 2; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
        case 0xED: remaining = 2; upper = 0x9F
        case 0xF0: remaining = 3; lower = 0x90
        case 0xF1...0xF3: remaining = 3
        case 0xF4: remaining = 3; upper = 0x8F
        default: return false  // 80–BF without a lead byte, C0–C1, F5–FF
        }
        return true
    }
}
