#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Header fields normalised for comparison: names compared case-insensitively, every value of a
/// repeated name kept in the order it came.
///
/// Order *between* different names is not kept: HTTP gives it no meaning, and the two
/// transports legitimately build their header blocks in different orders.
public struct HeaderFields: Sendable, Equatable, CustomStringConvertible {
    /// Values by lowercased name.
    private var valuesByName: [String: [String]]

    /// Collects `fields` as they came, for example a server's record of a request's headers.
    public init<Fields: Sequence>(_ fields: Fields) where Fields.Element == (name: String, value: String) {
        var valuesByName: [String: [String]] = [:]
        for field in fields {
            valuesByName[field.name.lowercased(), default: []].append(field.value)
        }
        self.valuesByName = valuesByName
    }

    /// The headers of `response`.
    ///
    /// `HTTPURLResponse` has already joined a repeated name's values with `", "` (both
    /// transports do, as URLSession does), so each name holds the one joined value here.
    public init(_ response: HTTPURLResponse) {
        let fields = response.allHeaderFields.map { name, value in
            (name: String(describing: name), value: String(describing: value))
        }
        self.init(fields)
    }

    /// Every value of `name` (any letter case), in received order; empty when absent.
    public subscript(name: String) -> [String] {
        valuesByName[name.lowercased()] ?? []
    }

    /// The lowercased names present, sorted so that comparisons report them in a stable order.
    public var names: [String] {
        valuesByName.keys.sorted()
    }

    /// These fields without the names in `lowercasedNames`.
    public func removing(_ lowercasedNames: Set<String>) -> HeaderFields {
        var copy = self
        copy.valuesByName = valuesByName.filter { !lowercasedNames.contains($0.key) }
        return copy
    }

    public var description: String {
        names.map { name in "\(name): \(self[name].joined(separator: " | "))" }.joined(separator: "\n")
    }
}
