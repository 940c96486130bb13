import Foundation

/// Looks for a boundary in a file's bytes as they are read, a chunk at a time, including an
/// occurrence split across two chunks; it keeps only the last few bytes seen.
package struct BoundaryScanner: Sendable {
    private let pattern: Data
    /// The last `pattern.count - 1` bytes seen, at most.
    private var tail = Data()

    package init(boundary: String) {
        pattern = Data(boundary.utf8)
    }

    /// Whether the boundary ends in `chunk`: within it, or begun in the chunks before.
    package mutating func found(in chunk: Data) -> Bool {
        let keep = pattern.count - 1
        guard keep >= 0 else { return false }
        // Only the bytes that can complete an occurrence begun in the tail are copied.
        var junction = tail
        junction.append(chunk.prefix(keep))
        if MultipartLayout.occurs(pattern, in: junction) || MultipartLayout.occurs(pattern, in: chunk) { return true }
        if chunk.count >= keep {
            tail = Data(chunk.suffix(keep))
        } else {
            tail = Data(junction.suffix(keep))
        }
        return false
    }
}
