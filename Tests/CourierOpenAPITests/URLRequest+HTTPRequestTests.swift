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

/// What the server receives from a generated request: URL, method and header fields.
@Suite struct URLRequestHTTPRequestTests {
    @Test(arguments: TransportKind.configured)
    func theServerURLsPathPrefixesTheOperationsPath(transport: TransportKind) async throws {
        try await withTestServer { server in
            for base in ["/anything/v1", "/anything/v1/"] {
                let client = Client(
                    serverURL: server.url(base),
                    transport: CourierClientTransport(try transport.streaming)
                )
                let echo = try await client.getEcho(query: .init(q: ["1"])).ok.body.json
                #expect(echo.path == "/anything/v1/get", "base \(base)")
                #expect(echo.query == "q=1", "base \(base)")
            }
        }
    }

    @Test(arguments: TransportKind.configured)
    func repeatedFieldsAreJoinedAsHTTPAllows(transport: TransportKind) async throws {
        try await withTestServer { server in
            let fields = AddingFields([
                HTTPField(name: HTTPField.Name("X-Repeated")!, value: "one"),
                HTTPField(name: HTTPField.Name("x-repeated")!, value: "two"),
                HTTPField(name: .cookie, value: "a=1"),
                HTTPField(name: .cookie, value: "b=2"),
            ])
            let echo = try await transport.client(for: server, middlewares: [fields]).getEcho().ok.body.json
            // URLSession sends its fields in its own order, so only the joined values are compared.
            let received = echo.headers.filter { ["x-repeated", "cookie"].contains($0.name.lowercased()) }
                .sorted { $0.name < $1.name }
            #expect(received == [.init(name: "Cookie", value: "a=1; b=2"), .init(name: "X-Repeated", value: "one, two")])
        }
    }
}

/// Appends fields to every request, as an app's middleware would.
private struct AddingFields: ClientMiddleware {
    let fields: [HTTPField]

    init(_ fields: [HTTPField]) {
        self.fields = fields
    }

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields.append(contentsOf: fields)
        return try await next(request, body, baseURL)
    }
}
