extension RecordedRequest {
    /// The query's `name=value` pairs in order, percent-decoded. `+` stays `+` because these
    /// are URL queries, not form bodies; a pair without `=` has an empty value; text whose
    /// percent-encoding is malformed is kept as sent rather than rejected.
    var queryItems: [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: "=") else {
                return (pair.percentDecodedLeniently, "")
            }
            return (
                pair[..<equals].percentDecodedLeniently,
                pair[pair.index(after: equals)...].percentDecodedLeniently
            )
        }
    }

    /// ``queryItems`` grouped by name, values in order.
    var args: [String: [String]] {
        queryItems.reduce(into: [:]) { args, item in args[item.name, default: []].append(item.value) }
    }
}
