#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The layer that refuses responses whose framing or fields no correct server sends, with
/// `URLError(.badServerResponse)`:
/// - `Content-Length` given more than once with different values (RFC 9112 §6.3: an
///   unrecoverable error, since the body's end is ambiguous; the mismatch is how request
///   smuggling works). Repeats of one value are accepted, as §6.3 allows.
/// - CR, LF or NUL inside a field value (RFC 9110 §5.5): a field that smuggles a line break
///   would reach the caller as if the server had sent two fields.
///
/// Both engines join repeated fields with `", "` before the layer sees them, so a repeated
/// `Content-Length` reaches it as a list.
package func validatingResponses() -> NetworkingLayer {
    buffered(validationLayer())
}

/// Response validation over either kind of body: only the head is checked.
package func validationLayer<Body: Sendable, Head: ExchangeHead>() -> ExchangeLayer<Body, Head> {
    ExchangeLayer { send in
        { request, upload in
            let (body, response) = try await send(request, upload)
            if let problem = response.fieldProblem {
                throw URLError(.badServerResponse, problem, url: response.responseURL ?? request.url)
            }
            return (body, response)
        }
    }
}

/// The checks response validation makes, as pure functions of a response's fields.
package enum ResponseFieldCheck {
    static func problem(in response: HTTPURLResponse) -> String? {
        for (key, value) in response.allHeaderFields {
            guard let name = key as? String, let value = value as? String else { continue }
            if let problem = problem(name: name, value: value) { return problem }
        }
        return nil
    }

    static func problem(name: String, value: String) -> String? {
        for byte in value.utf8 {
            switch byte {
            case 0x0D: return "the value of \(name) holds a bare CR"
            case 0x0A: return "the value of \(name) holds a line feed"
            case 0x00: return "the value of \(name) holds a NUL byte"
            default: continue
            }
        }
        if value.utf8.contains(UInt8(ascii: ",")), isContentLength(name) {
            let lengths = Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            if lengths.count > 1 {
                return "Content-Length is given more than once with different values (\(value))"
            }
        }
        return nil
    }

    /// Whether `name` is `Content-Length` in any letter case, without Foundation's
    /// case-insensitive comparison, which costs more than the rest of the check.
    /// Whether a field name, as text or as the bytes of a head block, is `Content-Length`,
    /// compared without regard to case.
    static func isContentLength(_ name: String) -> Bool {
        isContentLength(name.utf8)
    }

    static func isContentLength(_ name: some Collection<UInt8>) -> Bool {
        let expected = "content-length".utf8
        guard name.count == expected.count else { return false }
        // ASCII letters differ from their capitals in bit 5 only; '-' is compared as it is.
        return zip(name, expected).allSatisfy { byte, lower in byte | (lower == UInt8(ascii: "-") ? 0 : 0x20) == lower }
    }
}
