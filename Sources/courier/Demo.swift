#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation

/// `courier demo`: each step sends real requests to an embedded server and prints one line with
/// what came back, so a new user sees every layer work, failures included, in a few seconds.
struct Demo {
    private struct Greeting: Codable, Sendable { var text: String }

    /// Runs every step; returns whether all of them behaved as described.
    func run() async -> Bool {
        let server: TestServer
        do {
            server = try await TestServer.start()
        } catch {
            print("could not start the embedded server: \(error)")
            return false
        }
        let output = DemoOutput()
        output.heading("Courier demo — embedded server at \(server.baseURL.absoluteString)")
        let transport = URLSessionTransport()
        let client = APIClient(baseURL: server.baseURL, networking: transport.networking)

        await output.step("typed GET decoded through APIClient") {
            let echo = try await client.send(Request<Echo>("get", method: .get([URLQueryItem(name: "lang", value: "swift")])))
            return "args \(echo.args)"
        }
        await output.step("JSON POST with an Encodable body") {
            let echo = try await client.send(Request<Echo>("anything", method: .post(.json(Greeting(text: "hello")))))
            return "server got \(echo.method) \(echo.bodyText ?? "")"
        }
        await output.step("Bearer token composed onto the transport") {
            let authorized = APIClient(baseURL: server.baseURL, networking: compose(bearerToken("s3cret"), transport.networking))
            let echo = try await authorized.send(Request<Echo>("get"))
            return "Authorization: \(echo.headers.first { $0.name.lowercased() == "authorization" }?.value ?? "missing")"
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
            let refused = APIClient(baseURL: URL(string: "http://127.0.0.1:9/")!, networking: transport.networking)
            try await refused.send(Request<Void>("get"))
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
            let bytes = client.future(for: Request<Data>("bytes/64"))
                .map { $0.count }
                .flatMap { count in client.future(for: Request<Echo>("anything?count=\(count)")) }
            let echo = try await bytes.value
            return "second request saw count=\(echo.args["count"]?.first ?? "?")"
        }

        try? await server.shutdown()
        output.summary()
        return output.failures == 0
    }
}
