#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

// Request modifiers compose with any `Networking` (`compose(bearerToken(t), networking)`), so
// authentication and default headers stay out of every transport and every request definition.
// Header values are checked by the transport's `validateForSending()`, so a token holding CR/LF
// fails with `RequestError.invalidHeader` instead of splitting the request. They are written
// through `allHTTPHeaderFields` because FoundationNetworking's `setValue(_:forHTTPHeaderField:)`
// silently drops such a value, which would send the request without the header at all.

/// Sets `Authorization: Bearer <token>`, replacing any earlier `Authorization` value.
public func bearerToken(_ token: String) -> RequestModifier {
    header("Authorization", "Bearer \(token)")
}

/// Sets one header field, replacing any earlier value.
public func header(_ name: String, _ value: String) -> RequestModifier {
    { request in
        var request = request
        request.replaceHeader(name, with: value)
        return request
    }
}

/// Adds each header the request does not already have; the request's own values win.
public func defaultHeaders(_ headers: [String: String]) -> RequestModifier {
    { request in
        var request = request
        for (name, value) in headers where request.value(forHTTPHeaderField: name) == nil {
            request.replaceHeader(name, with: value)
        }
        return request
    }
}

extension URLRequest {
    /// Sets `name` to `value`, replacing any field of the same name in any letter case, keeping
    /// the value byte for byte so that validation sees what the caller wrote.
    mutating func replaceHeader(_ name: String, with value: String) {
        var fields = allHTTPHeaderFields ?? [:]
        for key in fields.keys where key.caseInsensitiveCompare(name) == .orderedSame {
            fields[key] = nil
        }
        fields[name] = value
        allHTTPHeaderFields = fields
    }
}
