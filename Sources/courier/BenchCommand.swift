#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ArgumentParser
import Courier
import CourierCurl
import Foundation

/// `courier bench URL`: GETs one URL with N in flight on one transport or each in turn, and
/// prints requests/s, MB/s and latency percentiles as a table.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure requests/s, MB/s and latency (p50/p90/p99/max) of GETs to one URL.",
        discussion: """
            Each transport gets a short warm-up (opening its connections), then the measured run. \
            Errors are transport failures and responses with status >= 400; both are counted, \
            not retried.

            Exit codes: 0 every request succeeded; 1 a request failed or the transport could not \
            start; 23 stdout could not be written; 64 usage error.
            """
    )

    /// `all` runs each transport in turn, URLSession first.
    enum TransportChoice: String, ExpressibleByArgument, CaseIterable {
        case curl, urlsession, all

        var transports: [TransportKind] {
            switch self {
            case .curl: [.curl]
            case .urlsession: [.urlSession]
            case .all: [.urlSession, .curl]
            }
        }
    }

    @Argument(help: "The http or https URL to GET.")
    var url: String

    @Option(help: "curl, urlsession or all.")
    var transport: TransportChoice = .all

    @Option(help: "Requests in flight at once.")
    var concurrency: Int = 16

    @Option(help: "Stop after this many requests (per transport).")
    var requests: Int?

    @Option(help: "Stop after this many seconds (per transport); the default when --requests is absent is 5.")
    var duration: Double?

    func validate() throws {
        guard (1...10_000).contains(concurrency) else { throw ValidationError("--concurrency must be 1...10000") }
        if requests != nil, duration != nil { throw ValidationError("give --requests or --duration, not both") }
        if let requests, requests < 1 { throw ValidationError("--requests must be at least 1") }
        if let duration, !(duration > 0 && duration <= 3_600) { throw ValidationError("--duration must be in (0, 3600] seconds") }
        _ = try RequestURL.parse(url)
    }

    func run() async throws {
        let target = try RequestURL.parse(url)
        let limit: LoadRun.Limit = requests.map { .requests($0) } ?? .duration(.seconds(duration ?? 5))
        let load = LoadRun(request: URLRequest(url: target), concurrency: concurrency, limit: limit)
        Terminal.line("GET \(target.redactedString), \(concurrency) in flight, \(limitText(limit)) per transport")
        var rows = [LoadRun.Result.tableHeader]
        var failed = false
        var firstErrors: [String] = []
        for kind in transport.transports {
            let networking: Networking
            do {
                // As many connections as requests in flight, so neither transport queues on its
                // default of 6 per host.
                var curl = CurlTransport.Configuration()
                curl.maximumConnectionsPerHost = concurrency
                networking = try kind.makeTransport(urlSession: .init(maximumConnectionsPerHost: concurrency), curl: curl).networking
            } catch {
                Terminal.errorLine("\(kind.displayName) transport could not start: \(error)")
                throw ExitCode(1)
            }
            // Warm-up: open the connections so the measured run does not time handshakes.
            _ = await LoadRun(request: load.request, concurrency: concurrency, limit: .requests(concurrency * 2)).run(networking)
            let result = await load.run(networking)
            rows.append(result.tableRow(transport: kind.displayName))
            if result.errors > 0 || result.completed == 0 {
                failed = true
                firstErrors.append("\(kind.displayName): \(result.errors) errors, first: \(result.firstError ?? "no request completed")")
            }
        }
        Terminal.table(rows, rightAligned: LoadRun.Result.numericColumns).forEach { Terminal.line($0) }
        firstErrors.forEach(Terminal.errorLine)
        if failed { throw ExitCode(1) }
    }

    private func limitText(_ limit: LoadRun.Limit) -> String {
        switch limit {
        case .requests(let count): "\(count) requests"
        case .duration(let duration): String(format: "%.1f s", duration.seconds)
        }
    }
}
