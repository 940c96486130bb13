#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierParity
import CourierTestServer
import Foundation

/// `courier demo`: each step sends real requests to an embedded server and prints one line with
/// what came back, so a new user sees every layer work, failures included, on both transports,
/// then how the two compare (parity) and how fast each is (a short throughput run).
struct Demo {
    struct Greeting: Codable, Sendable { var text: String }

    /// Runs every step; returns whether all of them behaved as described.
    func run() async -> Bool {
        let server: TestServer
        do {
            server = try await TestServer.start()
        } catch {
            Terminal.line("could not start the embedded server: \(error)")
            return false
        }
        let output = DemoOutput()
        output.heading("Courier demo — embedded server at \(server.baseURL.absoluteString)")
        var transports: [(TransportKind, Networking)] = []
        for kind in [TransportKind.urlSession, .curl] {
            do {
                transports.append((kind, try kind.makeTransport().networking))
            } catch {
                output.check("\(kind.displayName) transport starts", passed: false, detail: "\(error)")
            }
        }
        for (kind, networking) in transports {
            output.section("\(kind.displayName) transport")
            await steps(output, client: APIClient(baseURL: server.baseURL, networking: networking), networking: networking, server: server)
            await policySteps(output, kind: kind, server: server)
        }
        await parity(output, server: server)
        await throughput(output, server: server, transports: transports)
        try? await server.shutdown()
        output.summary()
        return output.failures == 0
    }

    private func steps(_ output: DemoOutput, client: APIClient, networking: @escaping Networking, server: TestServer) async {
        await output.step("typed GET decoded through APIClient") {
            let echo = try await client.send(Request<Echo>("get", method: .get([URLQueryItem(name: "lang", value: "swift")])))
            return "args \(echo.args)"
        }
        await output.step("JSON POST with an Encodable body") {
            let echo = try await client.send(Request<Echo>("anything", method: .post(.json(Greeting(text: "hello")))))
            return "server got \(echo.method) \(echo.bodyText ?? "")"
        }
        await output.expectFailure("404 becomes APIError.notFound") {
            try await client.send(Request<Void>("status/404"))
        } matches: { if case .notFound = $0.kind { true } else { false } }
        await output.expectFailure("500 becomes APIError.serverError") {
            try await client.send(Request<Void>("status/500"))
        } matches: { if case .serverError = $0.kind { true } else { false } }
        await output.expectFailure("wrong shape becomes APIError.decoding") {
            _ = try await client.send(Request<Greeting>("get"))
        } matches: { if case .decoding = $0.kind { true } else { false } }
        await output.expectFailure("slow server becomes a timeout") {
            try await client.send(Request<Void>("delay/5", timeoutInterval: 0.3))
        } matches: { $0.urlError?.code == .timedOut }
        await output.expectFailure("closed port becomes a refused connection") {
            let refusing = try await RefusingPort.open()
            do {
                try await APIClient(baseURL: refusing.baseURL, networking: networking).send(Request<Void>("get"))
            } catch {
                try? await refusing.close()
                throw error
            }
            try? await refusing.close()
        } matches: { $0.urlError?.code == .cannotConnectToHost }
        await output.step("redirect chain followed to its end") {
            let echo = try await client.send(Request<Echo>("redirect/3"))
            return "ended at \(echo.path)"
        }
        await output.step("gzip body decoded") {
            let echo = try await client.send(Request<Echo>("gzip"))
            return "decoded echo of \(echo.path)"
        }
        await output.step("Future chain: map and flatMap") {
            let bytes = Future { try await client.send(Request<Data>("bytes/64")) }
                .map { $0.count }
                .flatMap { count in Future { try await client.send(Request<Echo>("anything?count=\(count)")) } }
            let echo = try await bytes.value
            return "second request saw count=\(echo.args["count"]?.first ?? "?")"
        }
        await output.step("Combine pipeline: publisher, map, flatMap") {
            try await combinePipeline(client)
        }
    }

    /// The shared policy layers, which both transports run: the same answers to hostile servers.
    /// Each step configures only the policy it shows, so no two limits race each other.
    private func policySteps(_ output: DemoOutput, kind: TransportKind, server: TestServer) async {
        func client(_ configure: (inout Policies) -> Void) throws -> APIClient {
            var policies = Policies()
            configure(&policies)
            return APIClient(baseURL: server.baseURL, networking: try kind.makeTransport(policies: policies).networking)
        }
        await output.step("Bearer token sent by the Authentication layer") {
            let authentication = Authentication(origin: server.baseURL, credential: .bearer("s3cret"))
            let echo = try await client { $0.callLayers = [authentication] }.send(Request<Echo>("get"))
            return "Authorization: \(echo.headers.first { $0.name.lowercased() == "authorization" }?.value ?? "missing")"
        }
        await output.expectFailure("total deadline ends a drip feed") {
            // One byte every 50 ms: never idle, so only the deadline of 0.5 s ends it.
            try await client { $0.totalDeadline = 0.5 }.send(Request<Void>("drip/100?interval_ms=50"))
        } matches: { $0.urlError?.code == .timedOut }
        await output.expectFailure("endless body stops at the limit") {
            try await client { $0.maximumResponseBytes = 1 << 20 }.send(Request<Void>("infinite"))
        } matches: { $0.urlError?.code == .dataLengthExceedsMaximum }
        await output.expectFailure("compression bomb stops at the limit") {
            try await client { $0.maximumResponseBytes = 1 << 20 }.send(Request<Void>("bomb/gzip/64"))
        } matches: { $0.urlError?.code == .dataLengthExceedsMaximum }
        await output.expectFailure("two Content-Lengths are refused") {
            try await client { _ in }.send(Request<Void>("content-length/conflicting"))
        } matches: { $0.urlError?.code == .badServerResponse }
        await output.step("cookie set on a redirect is sent") {
            let echo = try await client { $0.cookies = CookieStore() }
                .send(Request<[String: [String: String]]>("cookies/set?session=demo"))
            return "next hop sent session=\(echo["cookies"]?["session"] ?? "nothing")"
        }
    }

    /// A few requests through `parityReport`, as a table; passes when the transports agree on all.
    private func parity(_ output: DemoOutput, server: TestServer) async {
        output.section("parity: the same requests through both transports")
        let paths = ["/get?a=1", "/status/404", "/redirect/2", "/gzip", "/bytes/1024"]
        do {
            let results = try await parityReport(for: paths.map { URLRequest(url: server.url($0)) })
            for (path, result) in zip(paths, results) {
                output.check("GET \(path)", passed: result.transportsAgree, detail: result.firstDifference.map { "differ: \($0)" } ?? "agree")
            }
        } catch {
            output.check("parity report", passed: false, detail: "\(error)")
        }
    }

    /// Two seconds of small GETs per transport at 16 in flight.
    private func throughput(_ output: DemoOutput, server: TestServer, transports: [(TransportKind, Networking)]) async {
        output.section("throughput: 2 s of GET /bytes/13 per transport, 16 in flight")
        let load = LoadRun(request: URLRequest(url: server.url("/bytes/13")), concurrency: 16, limit: .duration(.seconds(2)))
        var rows = [LoadRun.Result.tableHeader]
        var failures: [String] = []
        for (kind, networking) in transports {
            let result = await load.run(networking)
            rows.append(result.tableRow(transport: kind.displayName))
            if result.errors > 0 || result.completed == 0 {
                failures.append("\(kind.displayName): \(result.firstError ?? "no request completed")")
            }
        }
        output.table(rows, rightAligned: LoadRun.Result.numericColumns)
        output.check("every request succeeded", passed: failures.isEmpty, detail: failures.isEmpty ? "no errors" : failures.joined(separator: "; "))
    }
}
