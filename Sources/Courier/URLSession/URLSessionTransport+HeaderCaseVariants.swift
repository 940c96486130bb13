#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// `response` with header names that differ only in letter case joined with ", " under
    /// one spelling, as `CurlTransport` joins them; itself when there are none.
    /// FoundationNetworking keeps such names apart, so `value(forHTTPHeaderField:)` would
    /// answer with one of the values. It does not keep the order they came in either, so the
    /// spellings are taken in ASCII order (capitalised first), not the order received.
    static func joiningCaseVariants(_ response: URLResponse) -> URLResponse {
        guard let http = response as? HTTPURLResponse, let url = http.url else { return response }
        var seen = Set<String>()
        var hasVariants = false
        for key in http.allHeaderFields.keys {
            guard let name = key as? String else { continue }
            if !seen.insert(name.lowercased()).inserted { hasVariants = true }
        }
        guard hasVariants, let fields = http.allHeaderFields as? [String: String] else { return response }
        var joined: [String: String] = [:]
        var spelling: [String: String] = [:]
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            let key = name.lowercased()
            if let first = spelling[key] {
                joined[first, default: ""] += ", \(value)"
            } else {
                spelling[key] = name
                joined[name] = value
            }
        }
        return HTTPURLResponse(url: url, statusCode: http.statusCode, httpVersion: "HTTP/1.1", headerFields: joined) ?? response
    }
}
