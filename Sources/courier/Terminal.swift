import Foundation

/// The few terminal helpers every subcommand shares: raw writes, TTY checks, colour and padding.
enum Terminal {
    static let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1

    /// Writes bytes to stdout unchanged (no encoding, no added newline).
    static func writeOut(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    /// Writes one line to stderr; newlines inside `text` are flattened so a failure stays one line.
    static func errorLine(_ text: String) {
        let flat = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        FileHandle.standardError.write(Data("courier: \(flat)\n".utf8))
    }

    /// `text` in an ANSI style when stdout is a terminal, plain otherwise (pipes, files, tests).
    static func paint(_ text: String, _ code: String) -> String {
        stdoutIsTerminal ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Left-aligned to `width` characters (longer text is kept whole, never cut).
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// Right-aligned to `width` characters.
    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// Rows printed as aligned columns separated by two spaces; the first row is the header.
    /// Columns listed in `rightAligned` (numbers) are right-aligned.
    static func table(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                rightAligned.contains(column) ? padLeft(cell, widths[column]) : pad(cell, widths[column])
            }
            .joined(separator: "  ")
            .trimmingCharacters(in: .whitespaces)
        }
    }
}
