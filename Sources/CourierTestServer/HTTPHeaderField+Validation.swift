extension HTTPHeaderField {
    /// Whether `name` is an RFC 9110 token. Routes that copy client input into response
    /// headers check this first: NIO's outbound validator would otherwise fail the write
    /// after the status line is chosen, and the client would see a dropped connection
    /// instead of a 400.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isTokenByte)
    }

    /// Whether `value` can be sent as a field value: no control characters except
    /// horizontal tab, so a client cannot smuggle extra header lines through CR/LF.
    static func isValidValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in byte == 0x09 || (byte >= 0x20 && byte != 0x7F) }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
