#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Courier
import Foundation
import Testing

/// The one body type: what is held in memory goes in `httpBody`, what is read as it is sent
/// goes beside the request, and equality tells bodies apart by what they send.
@Suite struct RequestBodyTests {
    let base = URL(string: "http://127.0.0.1:1/api/")!

    private static func temporaryFile(_ contents: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-body-\(UUID().uuidString)")
        try contents.write(to: url)
        return url
    }

    @Test func bodiesHeldInMemoryAreTheRequestsHTTPBody() throws {
        for body in [RequestBody.data(Data("x".utf8)), .text("x"), .json(["a": 1] as [String: Any]), .form([URLQueryItem(name: "a", value: "1")])] {
            #expect(body.isInMemory)
            let request = try Request<Void>("things", method: .post(body)).urlRequest(baseURL: base)
            #expect(request.httpBody == (try body.data()))
        }
    }

    @Test func aFileOrAStreamGoesBesideTheRequestWithItsContentType() throws {
        let file = try Self.temporaryFile(Data("file body".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let form = try RequestBody.multipart(MultipartForm([.file("doc", file)]))
        for body in [try RequestBody.file(file), .stream(AsyncStream<Data> { $0.finish() }), form] {
            #expect(!body.isInMemory)
            #expect(try body.data() == nil)
            let request = try Request<Void>("things", method: .post(body)).urlRequest(baseURL: base)
            #expect(request.httpBody == nil)
            #expect(request.value(forHTTPHeaderField: "Content-Type") == body.contentType)
        }
        #expect(form.contentType?.hasPrefix("multipart/form-data; boundary=") == true)
    }

    @Test func aJSONBodyIsEncodedOnceWithTheGivenEncoder() throws {
        struct Stamp: Encodable, Sendable { var at: Date }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let body = RequestBody.json(Stamp(at: Date(timeIntervalSince1970: 5)))
        let encoded = try body.encoded(using: encoder)
        #expect(encoded.isInMemory)
        #expect(try encoded.data() == Data(#"{"at":5}"#.utf8))
        #expect(encoded.length == 8)
        #expect(encoded.contentType == "application/json")
    }

    @Test func streamsAreEqualOnlyToTheirCopies() throws {
        let one = RequestBody.stream(AsyncStream<Data> { $0.finish() })
        let copy = one
        let other = RequestBody.stream(AsyncStream<Data> { $0.finish() })
        #expect(one == copy)
        #expect(one != other)
        let file = URL(fileURLWithPath: "/dev/null")
        #expect(try RequestBody.file(file) == RequestBody.file(file))
        #expect(RequestBody.data(Data("a".utf8)) != .data(Data("a".utf8), contentType: "text/plain"))
    }

    /// Over a `Networking`, which takes no body beside the request, a file is collected into
    /// `httpBody` and sent through the buffered call.
    @Test func aFileGoesThroughSendOverANetworking() async throws {
        let file = try Self.temporaryFile(Data("file body".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let client = APIClient(baseURL: base, networking: { request in
            (request.httpBody ?? Data("none".utf8), try httpResponse(for: request, status: 200, headers: [:]))
        })
        let sent = try await client.send(Request<Data>("upload", method: .put(try .file(file))))
        #expect(sent == Data("file body".utf8))
    }
}
