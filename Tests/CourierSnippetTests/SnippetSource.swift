/// A Swift file of a snippet module, and where in it a document's code block appears.
struct SnippetSource: Sendable {
    /// The path shown in failures, relative to the package root.
    var path: String
    var lines: [String]

    init(path: String, text: String) {
        self.path = path
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Where `block` runs through this file, line for line, as a 0-based line index.
    ///
    /// Every line must be the block's line after one indentation shared by the whole block, so
    /// that an example may sit inside a function or a type in the file; trailing whitespace is
    /// ignored, and a blank line of the block matches a blank line of the file.
    func location(of block: ArraySlice<String>) -> Int? {
        guard !block.isEmpty else { return nil }
        return lines.indices.first { prefixMatch(of: block, at: $0) == block.count }
    }

    /// How many of `block`'s lines, from its first, match the file's lines from `start`.
    func prefixMatch(of block: ArraySlice<String>, at start: Int) -> Int {
        guard let first = block.first, let indentation = Self.indentation(of: first, in: lines[start]) else {
            return 0
        }
        var matched = 0
        for (offset, expected) in block.enumerated() {
            let index = start + offset
            guard index < lines.count else { break }
            let actual = Self.trimmingTrailingWhitespace(lines[index])
            let wanted = Self.trimmingTrailingWhitespace(expected)
            let same = wanted.isEmpty ? actual.isEmpty : actual == indentation + wanted
            guard same else { break }
            matched += 1
        }
        return matched
    }

    /// The whitespace that `line` has before `blockLine`, if `line` is `blockLine` indented.
    private static func indentation(of blockLine: String, in line: String) -> String? {
        let wanted = trimmingTrailingWhitespace(blockLine)
        let actual = trimmingTrailingWhitespace(line)
        guard !wanted.isEmpty, actual.hasSuffix(wanted) else { return nil }
        let indentation = actual.dropLast(wanted.count)
        return indentation.allSatisfy { $0 == " " || $0 == "\t" } ? String(indentation) : nil
    }

    private static func trimmingTrailingWhitespace(_ line: String) -> String {
        var line = Substring(line)
        while let last = line.last, last.isWhitespace {
            line.removeLast()
        }
        return String(line)
    }
}
