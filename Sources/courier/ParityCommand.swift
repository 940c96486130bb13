#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ArgumentParser
import Courier
import CourierParity
import Foundation

/// `courier parity URL...`: GETs each URL through URLSession and through libcurl and prints,
/// per URL, whether the transports agree or the first field on which they differ.
struct ParityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parity",
        abstract: "Compare URLSession and libcurl on your own URLs: agree, or the first differing field.",
        discussion: """
            Each URL is fetched twice (GET), once per transport, one at a time. Fields compared: \
            outcome, status, headers (except ones that always vary, such as Date), body, final \
            URL and failure.

            Exit codes: 0 the transports agree on every URL; 1 they differ on at least one \
            (the table says where); 2 the comparison could not run; 23 stdout could not be written; \
            64 usage error.
            """
    )

    @Argument(help: "http or https URLs to compare.")
    var urls: [String] = []

    @Option(help: "A file with one URL per line (blank lines and lines starting with # are skipped).")
    var file: String?

    func validate() throws {
        if urls.isEmpty, file == nil { throw ValidationError("give at least one URL or --file FILE") }
        for url in urls { _ = try RequestURL.parse(url) }
    }

    func run() async throws {
        var texts = urls
        if let file {
            do {
                let contents = try String(contentsOfFile: file, encoding: .utf8)
                texts += contents.split(whereSeparator: \.isNewline)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            } catch {
                throw ValidationError("cannot read --file \(file): \(error.localizedDescription)")
            }
        }
        let requests = try texts.map { URLRequest(url: try RequestURL.parse($0)) }
        let results: [ParityResult]
        do {
            results = try await parityReport(for: requests)
        } catch {
            Terminal.errorLine("parity report could not run: \(error)")
            throw ExitCode(2)
        }
        var rows = [["URL", "result"]]
        for result in results {
            let verdict = result.firstDifference.map { "differ: \($0)" } ?? "agree"
            rows.append([result.request.url?.redactedString ?? "", verdict])
        }
        Terminal.table(rows).forEach { Terminal.line($0) }
        let differing = results.filter { !$0.transportsAgree }.count
        Terminal.line("\(results.count - differing) of \(results.count) agree")
        if differing > 0 { throw ExitCode(1) }
    }
}
