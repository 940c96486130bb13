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

/// What a generated operation sees of the response head.
@Suite struct HTTPResponseURLResponseTests {
    @Test(arguments: Transport.configured)
    func repeatedResponseFieldsArriveAsOneJoinedField(transport: Transport) async throws {
        try await withTestServer { server in
            let ok = try await transport.client(for: server)
                .getResponseHeaders(query: .init(xCourierNote: ["one", "two"])).ok
            #expect(ok.headers.xCourierNote == "one, two")
            #expect(try ok.body.json == [.init(name: "X-Courier-Note", value: "one"), .init(name: "X-Courier-Note", value: "two")])
        }
    }
}
