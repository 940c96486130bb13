#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierOpenAPI
import CourierTestServer
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// The generated client over each engine: JSON in and out, status codes and failures.
@Suite struct CourierClientTransportTests {
    @Test(arguments: TransportKind.configured)
    func jsonOperationCarriesItsQueryAndHeaderParameters(transport: TransportKind) async throws {
        try await withTestServer { server in
            let output = try await transport.client(for: server).getEcho(
                query: .init(q: ["a b", "c"]),
                headers: .init(xTrace: "trace-1")
            )
            let echo = try output.ok.body.json
            #expect(echo.method == "GET")
            #expect(echo.path == "/get")
            #expect(echo.args.additionalProperties["q"] == ["a b", "c"])
            #expect(echo.headers.contains(.init(name: "X-Trace", value: "trace-1")))
            #expect(echo.headers.contains { $0.name.lowercased() == "accept" && $0.value == "application/json" })
        }
    }

    @Test(arguments: TransportKind.configured)
    func documentedStatusesDecodeAsTheirCases(transport: TransportKind) async throws {
        try await withTestServer { server in
            let client = try transport.client(for: server)
            _ = try await client.getStatus(path: .init(code: 204)).noContent
            _ = try await client.getStatus(path: .init(code: 404)).notFound
        }
    }

    @Test(arguments: TransportKind.configured)
    func anUndocumentedStatusIsReturnedNotThrown(transport: TransportKind) async throws {
        try await withTestServer { server in
            let output = try await transport.client(for: server).getStatus(path: .init(code: 418))
            guard case .undocumented(let statusCode, _) = output else {
                Issue.record("expected .undocumented, got \(output)")
                return
            }
            #expect(statusCode == 418)
        }
    }

    @Test(arguments: TransportKind.configured)
    func aRefusedConnectionThrowsTheEnginesURLErrorInsideClientError(transport: TransportKind) async throws {
        let streaming = try transport.streaming
        let port = try await RefusingPort.open()
        let client = Client(serverURL: port.baseURL, transport: CourierClientTransport(streaming))
        let thrown = await #expect(throws: ClientError.self) {
            try await client.getEcho()
        }
        try await port.close()
        let error = try #require(thrown)
        #expect(error.operationID == "getEcho")
        let urlError = try #require(error.underlyingError as? URLError)
        #expect(urlError.code == .cannotConnectToHost)
    }

    @Test(arguments: TransportKind.configured)
    func aBodyCutShortFailsWithTheEnginesURLError(transport: TransportKind) async throws {
        try await withTestServer { server in
            let client = try transport.client(for: server)
            // Thrown by the exchange when the engine buffers, by the body's iterator when it
            // streams; either way it is the engine's URLError, reached through ClientError.
            let error = await #expect(throws: (any Error).self) {
                let body = try await client.getTruncated(path: .init(count: 1 << 20)).ok.body.binary
                for try await _ in body {}
            }
            let urlError = (error as? ClientError)?.underlyingError as? URLError ?? error as? URLError
            #expect(urlError?.code == .networkConnectionLost, "\(String(describing: error))")
        }
    }
}
