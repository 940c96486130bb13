import Foundation

extension URL {
    /// `scheme?.lowercased()`, read for http and https from the first bytes of the URL's text.
    ///
    /// Each call of `scheme` slices a new string out of the URL, and the engines ask for the
    /// scheme several times a request; nearly every one is http or https, answered here with
    /// a constant.
    package var lowercasedScheme: String? {
        var text = absoluteString
        let known: String? = text.withUTF8 { bytes in
            // `| 0x20` is each letter's lowercase, and never turns another byte into one of these.
            guard bytes.count >= 5, bytes[0] | 0x20 == UInt8(ascii: "h"), bytes[1] | 0x20 == UInt8(ascii: "t"),
                  bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "p")
            else { return nil }
            if bytes[4] == UInt8(ascii: ":") { return "http" }
            if bytes.count >= 6, bytes[4] | 0x20 == UInt8(ascii: "s"), bytes[5] == UInt8(ascii: ":") { return "https" }
            return nil
        }
        return known ?? scheme?.lowercased()
    }
}
