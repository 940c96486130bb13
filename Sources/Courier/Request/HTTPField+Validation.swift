#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// RFC 9110 syntax checks shared by every transport, so both refuse the same requests with the
/// same ``RequestError`` before any byte is written.
enum HTTPFieldSyntax {
    /// `tchar` from RFC 9110 §5.6.2, as one bit per byte: bytes 0–63 in the first word, 64–127
    /// in the second. A lookup is a shift, where a `switch` over the ranges was a chain of
    /// comparisons for every byte of every field name of every request.
    private static let tokenBits: (low: UInt64, high: UInt64) = (0x03FF_6CFA_0000_0000, 0x57FF_FFFF_C7FF_FFFE)

    /// `tchar` from RFC 9110 §5.6.2: a letter, a digit or one of ``!#$%&'*+-.^_`|~``.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        if byte < 64 { return tokenBits.low >> UInt64(byte) & 1 == 1 }
        if byte < 128 { return tokenBits.high >> UInt64(byte - 64) & 1 == 1 }
        return false
    }

    static func isToken(_ text: String) -> Bool {
        // Through the bytes' buffer where the string has one: the view's generic walk costs
        // several times as much a byte.
        if let answer = text.utf8.withContiguousStorageIfAvailable({ !$0.isEmpty && $0.allSatisfy(isTokenCharacter) }) {
            return answer
        }
        return !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter)
    }

    /// Whether `a` and `b` name the same field: equal but for the case of ASCII letters, as
    /// RFC 9110 §5.1 compares names (every token is ASCII). Byte by byte: Foundation's
    /// case-insensitive comparison allocates a lowercased copy of each name.
    static func sameName(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard a.utf8.count == b.utf8.count else { return false }
        var bytes = b.utf8.makeIterator()
        for x in a.utf8 {
            guard let y = bytes.next() else { return false }
            let lower = x | 0x20
            guard x == y || (lower == y | 0x20 && lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) else { return false }
        }
        return true
    }

    /// Returns why `value` cannot be sent as a field value, or `nil` when it can.
    ///
    /// HTAB is allowed (RFC 9110 §5.5); every other C0 control and DEL is refused, because CR and
    /// LF split the request and NUL truncates it in C transports.
    static func problem(inValue value: String) -> String? {
        // Nearly every value has no byte below a space and no DEL: eight bytes at a time tell.
        if value.utf8.withContiguousStorageIfAvailable(ByteScan.holdsNoControlByte) == true { return nil }
        for byte in value.utf8 {
            switch byte {
            case 0x0D: return "value contains CR"
            case 0x0A: return "value contains LF"
            case 0x00: return "value contains NUL"
            case 0x09: continue
            case 0x01...0x1F, 0x7F:
                return "value contains control character 0x\(String(byte, radix: 16, uppercase: true))"
            default: continue
            }
        }
        return nil
    }

    static func validate(name: String, value: String) throws(RequestError) {
        guard isToken(name) else {
            throw .invalidHeader(name: name, reason: "name is not an RFC 9110 token")
        }
        if let problem = problem(inValue: value) {
            throw .invalidHeader(name: name, reason: problem)
        }
    }
}

extension URLRequest {
    /// Checks the parts of a request that a transport would otherwise put on the wire verbatim:
    /// the method must be an RFC 9110 token, header names tokens, and header values free of CR,
    /// LF, NUL and other control characters.
    ///
    /// A `Content-Length` set by hand must match an `httpBody`: both transports send the header
    /// as given, so a shorter body left the request waiting for bytes until it timed out, and a
    /// longer one left its surplus on a kept-alive connection, to be read as the start of the
    /// next request. The timeout must be 0 or more seconds: FoundationNetworking times a negative
    /// one out at once and traps on NaN.
    ///
    /// Both of Courier's transports call this before sending, so a malformed request fails with
    /// the same ``RequestError`` whichever transport is configured. URL problems (no URL, a
    /// scheme other than http/https) are left to the transport, which reports them as URLSession
    /// does, with `URLError(.badURL)` or `URLError(.unsupportedURL)`.
    public func validateForSending() throws(RequestError) {
        try validateForSending(bodyLength: httpBodyStream == nil ? Int64(httpBody?.count ?? 0) : nil)
    }

    /// ``validateForSending()`` for a request whose body is `upload` when one is given: a
    /// hand-set `Content-Length` must then match the upload's length, when that is known.
    package func validateForSending(uploading upload: RequestBody?) throws(RequestError) {
        guard let upload else { return try validateForSending() }
        try validateForSending(bodyLength: upload.length)
    }

    /// `bodyLength` is what a hand-set `Content-Length` must say; nil when it cannot be known
    /// before the body is read.
    private func validateForSending(bodyLength: Int64?) throws(RequestError) {
        // Written so that NaN fails too.
        guard timeoutInterval >= 0 else { throw .invalidTimeout("\(timeoutInterval)") }
        if let method = httpMethod, !HTTPFieldSyntax.isToken(method) {
            throw .invalidMethod(method)
        }
        for (name, value) in allHTTPHeaderFields ?? [:] {
            try HTTPFieldSyntax.validate(name: name, value: value)
            if let bodyLength, name.utf8.count == 14, name.lowercased() == "content-length" {
                try Self.validateContentLength(value, name: name, bodyLength: bodyLength)
            }
        }
    }

    /// A stream's length is unknown until it is read, so only a body of known length is checked.
    private static func validateContentLength(_ value: String, name: String, bodyLength: Int64) throws(RequestError) {
        guard value.trimmingCharacters(in: .whitespaces) != String(bodyLength) else { return }
        throw .invalidHeader(name: name, reason: "says \(value) bytes, but the body has \(bodyLength)")
    }
}
