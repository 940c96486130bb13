#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The layer that gives every request the header fields it does not set itself:
/// ``Policies/headers`` and the `User-Agent`. It runs outside every other layer, so logging,
/// the cache's `Vary`, cookies and authentication see the request as it goes out.
package func defaultHeaderLayer<Body: Sendable, Head>(_ fields: [(name: String, value: String)]) -> ExchangeLayer<Body, Head> {
    ExchangeLayer { send in
        { request, upload in
            try await send(request.filling(fields), upload)
        }
    }
}

extension Policies {
    /// The fields ``defaultHeaderLayer(_:)`` fills in: ``headers`` in name order, then the
    /// `User-Agent` unless ``headers`` names one.
    package var defaultFields: [(name: String, value: String)] {
        var fields = headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        if !fields.contains(where: { $0.name.caseInsensitiveCompare("User-Agent") == .orderedSame }) {
            fields.append((name: "User-Agent", value: userAgent ?? DefaultUserAgent.value))
        }
        return fields
    }
}

extension URLRequest {
    /// This request with each of `fields` it does not set. Written through
    /// `allHTTPHeaderFields`, and only when one is missing: each change copies Foundation's
    /// request object, and FoundationNetworking's `setValue(_:forHTTPHeaderField:)` drops a
    /// value holding CR or LF silently, where `validateForSending()` must see it and refuse.
    func filling(_ fields: [(name: String, value: String)]) -> URLRequest {
        var all = allHTTPHeaderFields ?? [:]
        guard all.addMissing(fields) else { return self }
        var request = self
        request.allHTTPHeaderFields = all
        return request
    }

    /// This request with `value` for `name`, in place of any value it had under any case of
    /// the name; written through `allHTTPHeaderFields`, as ``filling(_:)`` says why.
    mutating func replaceHeader(_ name: String, with value: String) {
        var fields = allHTTPHeaderFields ?? [:]
        for key in fields.keys where key.caseInsensitiveCompare(name) == .orderedSame {
            fields[key] = nil
        }
        fields[name] = value
        allHTTPHeaderFields = fields
    }
}

/// The fields every request is given (``Policies/defaultFields``), with the dictionary they
/// make on their own built once: a request that sets no fields of its own takes that dictionary
/// as it is, where filling an empty one allocated its storage on every request.
struct DefaultFields: Sendable {
    let fields: [(name: String, value: String)]
    /// `fields` added to no fields at all.
    let alone: [String: String]

    init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
        var alone: [String: String] = [:]
        _ = alone.addMissing(fields)
        self.alone = alone
    }

    /// Adds each of ``fields`` that `existing` does not name; whether it added any.
    func fill(_ existing: inout [String: String]) -> Bool {
        guard existing.isEmpty else { return existing.addMissing(fields) }
        existing = alone
        return !alone.isEmpty
    }
}

extension [String: String] {
    /// Adds each of `fields` whose name none of these fields has, in any case; whether it added
    /// any.
    mutating func addMissing(_ fields: [(name: String, value: String)]) -> Bool {
        let count = self.count
        for field in fields where !keys.contains(where: { HTTPFieldSyntax.sameName($0, field.name) }) {
            self[field.name] = field.value
        }
        return self.count != count
    }
}
