import Foundation

/// The few terminal helpers every subcommand shares: raw writes, TTY checks, colour and padding.
enum Terminal {
    static let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1

    /// The exit status when stdout cannot be written, curl's 23 ("write error").
    static let writeFailedStatus: Int32 = 23

    /// Writes bytes to stdout unchanged (no encoding, no added newline).
    ///
    /// A failed write ends the process with ``writeFailedStatus`` here rather than throwing:
    /// once stdout is gone nothing a command still has to do matters, and every subcommand
    /// prints from many places that could not all pass an error up. A closed pipe ends it
    /// silently, as `SIGPIPE` ends other tools; any other failure (a full disk) gets one line
    /// on stderr.
    static func writeOut(_ data: Data) {
        do {
            try FileDescriptorOutput.writeAll(data, to: STDOUT_FILENO)
        } catch {
            if !error.isBrokenPipe { errorLine("cannot write to stdout: \(error.description)") }
            exit(writeFailedStatus)
        }
    }

    /// Writes `text` and a newline to stdout; the tool's `print`.
    static func line(_ text: String = "") {
        writeOut(Data((text + "\n").utf8))
    }

    /// Writes one line to stderr; newlines inside `text` are flattened so a failure stays one line.
    static func errorLine(_ text: String) {
        let flat = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        writeError("courier: \(flat)\n")
    }

    /// Writes `text` to stderr as is. A failure is ignored: stderr is where it would be reported,
    /// and stdout may still be worth writing.
    static func writeError(_ text: String) {
        try? FileDescriptorOutput.writeAll(Data(text.utf8), to: STDERR_FILENO)
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
