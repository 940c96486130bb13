import Courier
import Foundation

/// Prints demo steps as aligned lines, in colour only when stdout is a terminal.
final class DemoOutput {
    private(set) var failures = 0
    private var steps = 0
    private let colour = Terminal.stdoutIsTerminal

    func heading(_ text: String) {
        Terminal.line(paint(text, code: "1"))
    }

    /// Runs `body`; the step passes when it returns without throwing.
    func step(_ title: String, _ body: () async throws -> String) async {
        do {
            report(title, passed: true, detail: try await body())
        } catch {
            report(title, passed: false, detail: "\(error)")
        }
    }

    /// Runs `body`; the step passes when it throws an `APIError` that `matches` accepts.
    func expectFailure(_ title: String, _ body: () async throws -> Void, matches: (APIError) -> Bool) async {
        do {
            try await body()
            report(title, passed: false, detail: "succeeded, expected an error")
        } catch let error as APIError {
            report(title, passed: matches(error), detail: error.description)
        } catch {
            report(title, passed: false, detail: "not an APIError: \(error)")
        }
    }

    /// A blank line and a sub-heading.
    func section(_ text: String) {
        Terminal.line()
        Terminal.line(paint(text, code: "1"))
    }

    /// Records a step whose outcome was decided by the caller.
    func check(_ title: String, passed: Bool, detail: String) {
        report(title, passed: passed, detail: detail)
    }

    /// Prints aligned rows, indented under the current section.
    func table(_ rows: [[String]], rightAligned: Set<Int>) {
        for line in Terminal.table(rows, rightAligned: rightAligned) { Terminal.line("  " + line) }
    }

    func summary() {
        Terminal.line()
        let text = failures == 0 ? "all \(steps) steps behaved as described" : "\(failures) of \(steps) steps did not"
        Terminal.line(paint(text, code: failures == 0 ? "32" : "31"))
    }

    private func report(_ title: String, passed: Bool, detail: String) {
        steps += 1
        if !passed { failures += 1 }
        let mark = passed ? paint("✓", code: "32") : paint("✗", code: "31")
        let padded = title.padding(toLength: 44, withPad: " ", startingAt: 0)
        Terminal.line("\(mark) \(padded) \(paint(detail, code: "2"))")
    }

    private func paint(_ text: String, code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
