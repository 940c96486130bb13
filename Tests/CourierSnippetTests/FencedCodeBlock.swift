import Foundation

/// One fenced code block of a Markdown document: the text between a line of three or more
/// backticks (or tildes) and the next such line.
struct FencedCodeBlock: Equatable, Sendable {
    /// What follows the opening fence, e.g. `swift` or `swift no-compile`.
    var infoString: String
    /// The lines between the fences, without the fence's own indentation.
    var lines: [String]
    /// The 1-based line number of the opening fence in its document.
    var line: Int

    /// The marker, after `swift` in the info string, of a block that is Swift but not code an app
    /// compiles (a `Package.swift` excerpt). GitHub and DocC highlight by the first word, so
    /// such a block still reads as Swift.
    static let notCompiledMarker = "no-compile"

    /// The info string's words: its first names the language.
    var infoWords: [Substring] {
        infoString.split(whereSeparator: \.isWhitespace)
    }

    /// Whether the block is Swift that the snippet modules must hold.
    var isCompiledSwift: Bool {
        infoWords.first == "swift" && !infoWords.contains(Substring(Self.notCompiledMarker))
    }

    /// The code with leading and trailing blank lines removed.
    var trimmedLines: ArraySlice<String> {
        let isBlank = { (line: String) in line.allSatisfy(\.isWhitespace) }
        guard let first = lines.firstIndex(where: { !isBlank($0) }),
              let last = lines.lastIndex(where: { !isBlank($0) })
        else { return [] }
        return lines[first...last]
    }

    /// Every fenced code block of `markdown`, in order.
    ///
    /// A fence may be indented (inside a list item); that indentation is removed from the block's
    /// lines. A closing fence is the same character, at least as long. A block left open runs to
    /// the end of the document, as CommonMark has it.
    static func all(in markdown: String) -> [FencedCodeBlock] {
        var blocks: [FencedCodeBlock] = []
        var open: (fence: Fence, infoString: String, line: Int, lines: [String])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            if let current = open {
                if let fence = Fence(line), fence.character == current.fence.character,
                   fence.length >= current.fence.length, fence.rest.allSatisfy(\.isWhitespace) {
                    blocks.append(FencedCodeBlock(infoString: current.infoString, lines: current.lines, line: current.line))
                    open = nil
                } else {
                    open?.lines.append(current.fence.removingIndentation(from: line))
                }
            } else if let fence = Fence(line), fence.character == "~" || !fence.rest.contains("`") {
                let infoString = fence.rest.trimmingCharacters(in: .whitespaces)
                open = (fence, infoString, index + 1, [])
            }
        }
        if let open {
            blocks.append(FencedCodeBlock(infoString: open.infoString, lines: open.lines, line: open.line))
        }
        return blocks
    }
}

/// A line that starts, after any indentation, with three or more backticks or tildes.
private struct Fence {
    var indentation: Int
    var character: Character
    var length: Int
    /// What follows the fence characters on the line.
    var rest: Substring

    init?(_ line: String) {
        let body = line.drop(while: { $0 == " " || $0 == "\t" })
        guard let character = body.first, character == "`" || character == "~" else { return nil }
        let run = body.prefix(while: { $0 == character })
        guard run.count >= 3 else { return nil }
        indentation = line.count - body.count
        self.character = character
        length = run.count
        rest = body.dropFirst(run.count)
    }

    /// `line` without as much of its leading whitespace as the fence had.
    func removingIndentation(from line: String) -> String {
        let leading = line.prefix(while: { $0 == " " || $0 == "\t" }).count
        return String(line.dropFirst(min(leading, indentation)))
    }
}
