/// A snippet file, `Tests/Snippets/<Module>/<Module>.swift`: one document's code block, whole.
struct SnippetSource: Sendable {
    /// The path shown in failures, relative to the package root.
    var path: String
    var lines: [String]

    init(path: String, text: String) {
        self.path = path
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The folder the file sits in, which must be its module's name and its own name.
    var module: String {
        path.split(separator: "/").dropLast().last.map(String.init) ?? ""
    }

    /// The file's lines without the blank lines before and after the code, as a block's
    /// ``FencedCodeBlock/trimmedLines`` are.
    var code: ArraySlice<String> {
        FencedCodeBlock(infoString: "swift", lines: lines, line: 1).trimmedLines
    }

    /// Whether `block` is this whole file, byte for byte: no line added before or after, no
    /// indentation, no trailing space of difference.
    func isWhole(_ block: ArraySlice<String>) -> Bool {
        !block.isEmpty && Array(code) == Array(block)
    }

    /// How many of `block`'s lines, from its first, are the file's first lines of code.
    func leadingMatch(of block: ArraySlice<String>) -> Int {
        zip(code, block).prefix { $0 == $1 }.count
    }
}
