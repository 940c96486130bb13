#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// The `Content-Type` a POST goes out with when nothing names one. FoundationNetworking labels
/// a POST's own body (a non-empty `httpBody`, any `httpBodyStream`)
/// `application/x-www-form-urlencoded`, and CurlTransport does the same for parity; an upload
/// given to `stream(for:uploading:)` is not a form, and goes out with no type on both, as
/// `curl -X POST -T FILE` sends it.
@Suite(.testServer, .timeLimit(.minutes(5))) struct TransportUploadContentTypeTests {
    /// Each source a ``RequestBody`` can have, and a stream of unknown length (sent chunked).
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case data, file, stream, streamOfUnknownLength

        var testDescription: String { rawValue }

        func upload(_ bytes: Data, file: URL) throws -> RequestBody {
            switch self {
            case .data: return .data(bytes)
            case .file:
                try bytes.write(to: file)
                return try .file(file)
            case .stream: return .stream(AsyncStream { $0.yield(bytes); $0.finish() }, length: Int64(bytes.count))
            case .streamOfUnknownLength: return .stream(AsyncStream { $0.yield(bytes); $0.finish() })
            }
        }
    }

    private static let bytes = Data("name=not-a-form&x=1".utf8)

    /// Sends `request` with `kind`'s upload of ``bytes`` and returns what the server received.
    private static func send(_ request: URLRequest, _ kind: Kind, over transport: TransportKind) async throws -> Echo {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let (body, head) = try await transport.streaming(request, try kind.upload(bytes, file: file))
        #expect(head.statusCode == 200)
        return try echo(try await body.collect(upTo: 1 << 20))
    }

    private static func post(_ server: TestServer, headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: server.url("/anything"))
        request.httpMethod = "POST"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    @Test(arguments: TransportKind.configured, Kind.allCases)
    func aPostedUploadGoesOutWithNoContentType(_ transport: TransportKind, _ kind: Kind) async throws {
        let received = try await Self.send(Self.post(try sharedServer()), kind, over: transport)
        #expect(received.method == "POST")
        #expect(received.headerValues("Content-Type") == [])
        #expect(received.bodyData == Self.bytes)
    }

    /// The upload replaces the request's own body, and with it the label that body would have had.
    @Test(arguments: TransportKind.configured, Kind.allCases)
    func anUploadInPlaceOfTheRequestsOwnBodyIsNotLabelled(_ transport: TransportKind, _ kind: Kind) async throws {
        var request = Self.post(try sharedServer())
        request.httpBody = Data("own=body".utf8)
        let received = try await Self.send(request, kind, over: transport)
        #expect(received.headerValues("Content-Type") == [])
        #expect(received.bodyData == Self.bytes)
    }

    @Test(arguments: TransportKind.configured, Kind.allCases)
    func anUploadKeepsTheTypeTheRequestNames(_ transport: TransportKind, _ kind: Kind) async throws {
        let request = Self.post(try sharedServer(), headers: ["Content-Type": "application/json"])
        let received = try await Self.send(request, kind, over: transport)
        #expect(received.headerValues("Content-Type") == ["application/json"])
    }

    /// Parity with FoundationNetworking, which both engines keep: a POST's own non-empty body,
    /// or its body stream, is labelled a form; an empty one is not.
    @Test(arguments: TransportKind.configured)
    func aPostsOwnBodyIsLabelledAForm(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        var own = Self.post(server)
        own.httpBody = Self.bytes
        let (data, _) = try await transport.networking(own)
        #expect(try echo(data).headerValues("Content-Type") == ["application/x-www-form-urlencoded"])

        let (streamed, _) = try await transport.streaming(own, nil)
        #expect(try echo(try await streamed.collect(upTo: 1 << 20)).headerValues("Content-Type") == ["application/x-www-form-urlencoded"])

        var stream = Self.post(server)
        stream.httpBodyStream = InputStream(data: Self.bytes)
        let (fromStream, _) = try await transport.networking(stream)
        #expect(try echo(fromStream).headerValues("Content-Type") == ["application/x-www-form-urlencoded"])

        var empty = Self.post(server)
        empty.httpBody = Data()
        let (fromEmpty, _) = try await transport.networking(empty)
        #expect(try echo(fromEmpty).headerValues("Content-Type") == [])
    }

    /// JSON sent straight to a transport is encoded by a `JSONEncoder()` before the layers, so
    /// it goes out with its type and its length, not chunked.
    @Test(arguments: TransportKind.configured)
    func aJSONBodyGoesOutWithItsTypeAndLength(_ transport: TransportKind) async throws {
        struct Note: Encodable, Sendable { var text: String }
        let (body, _) = try await transport.streaming(Self.post(try sharedServer()), .json(Note(text: "hi")))
        let received = try echo(try await body.collect(upTo: 1 << 20))
        #expect(received.headerValues("Content-Type") == ["application/json"])
        #expect(received.headerValues("Content-Length") == ["13"])
        #expect(received.headerValues("Transfer-Encoding").isEmpty)
        #expect(received.bodyText == #"{"text":"hi"}"#)
    }
}
