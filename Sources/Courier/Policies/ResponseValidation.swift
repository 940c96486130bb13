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
public func validatingResponses() -> NetworkingLayer {
    { send in
        { request in
            let (data, response) = try await send(request)
            if let http = response as? HTTPURLResponse, let problem = ResponseFieldCheck.problem(in: http) {
                throw URLError(.badServerResponse, problem, url: http.url ?? request.url)
            }
            return (data, response)
        }
    }
}

/// The checks ``validatingResponses()`` makes, as pure functions of a response's fields.
enum ResponseFieldCheck {
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
        if name.utf8.count == 14, name.caseInsensitiveCompare("Content-Length") == .orderedSame, value.utf8.contains(UInt8(ascii: ",")) {
            let lengths = Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            if lengths.count > 1 {
                return "Content-Length is given more than once with different values (\(value))"
            }
        }
        return nil
    }
}
