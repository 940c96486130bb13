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

/// What a generated operation sees of the response head, read from Courier's own head.
@Suite struct HTTPResponseResponseHeadTests {
    private let baseURL = URL(string: "http://127.0.0.1:1/")!

    /// A transport over a double that answers every request with `head` and an empty body.
    private func transport(answering head: @escaping @Sendable (URLRequest) -> ResponseHead) -> CourierClientTransport {
        CourierClientTransport { request, _ in (ResponseBody(Data()), head(request)) }
    }

    private func send(_ transport: CourierClientTransport) async throws -> HTTPResponse {
        try await transport.send(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil, baseURL: baseURL, operationID: "op").0
    }

    @Test func statusAndFieldsComeInTheOrderTheHeadKeptThem() async throws {
        let fields = HeaderFields([
            HeaderField(name: "Set-Cookie", value: "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT"),
            HeaderField(name: "X-Note", value: "x"),
            HeaderField(name: "Set-Cookie", value: "b=2"),
        ])
        let response = try await send(transport { request in
            ResponseHead(statusCode: 201, headerFields: fields, url: request.url)
        })
        #expect(response.status.code == 201)
        #expect(response.headerFields[values: .setCookie] == ["a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT", "b=2"])
        #expect(response.headerFields.map(\.name.canonicalName) == ["set-cookie", "x-note", "set-cookie"])
    }

    @Test func aFieldNameThatIsNotATokenIsLeftOut() async throws {
        let fields = HeaderFields([HeaderField(name: "Bad Name", value: "1"), HeaderField(name: "Good", value: "2")])
        let response = try await send(transport { request in
            ResponseHead(statusCode: 200, headerFields: fields, url: request.url)
        })
        #expect(response.headerFields.map(\.name.rawName) == ["Good"])
    }

    @Test func aStatusOutsideWhatHTTPTypesHoldsIsABadServerResponse() async throws {
        let error = await #expect(throws: URLError.self) {
            _ = try await send(transport { request in ResponseHead(statusCode: 1000, url: request.url) })
        }
        #expect(error?.code == .badServerResponse)
        #expect(error?.localizedDescription.contains("status 1000, outside 0...999") == true)
    }

    @Test(arguments: TransportKind.configured)
    func repeatedResponseFieldsReadAsOneJoinedValue(transport: TransportKind) async throws {
        try await withTestServer { server in
            let ok = try await transport.client(for: server)
                .getResponseHeaders(query: .init(xCourierNote: ["one", "two"])).ok
            #expect(ok.headers.xCourierNote == "one, two")
            #expect(try ok.body.json == [.init(name: "X-Courier-Note", value: "one"), .init(name: "X-Courier-Note", value: "two")])
        }
    }

    /// libcurl hands the head over as it came, so fields FoundationNetworking would join stay
    /// two on the way to swift-http-types.
    @Test(.enabled(if: TransportKind.configured.contains(.curl)))
    func curlKeepsRepeatedFieldsApart() async throws {
        try await withTestServer { server in
            let transport = CourierClientTransport(try TransportKind.curl.streaming)
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/response-headers?X-Courier-Note=one&X-Courier-Note=two")
            let (response, body) = try await transport.send(request, body: nil, baseURL: server.baseURL, operationID: "headers")
            #expect(response.headerFields[values: try #require(HTTPField.Name("X-Courier-Note"))] == ["one", "two"])
            if let body { _ = try await Data(collecting: body, upTo: 1 << 20) }
        }
    }
}
