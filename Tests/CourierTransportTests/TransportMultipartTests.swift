#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// Multipart forms sent by each engine through `APIClient.stream(_:)`, and the body
/// the server received read back by Python's standard-library parser, not by Courier.
@Suite(.testServer, .timeLimit(.minutes(5))) struct TransportMultipartTests {
    /// Bytes no text encoding would survive: every byte value, CRLFs, and dashes as a delimiter
    /// line begins.
    private static let binary: Data = {
        var bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) })
        bytes.append(Data("\r\n--\r\n\r\n--".utf8))
        bytes.append(Data((0...255).map { UInt8($0) }))
        return bytes
    }()

    private static func client(_ transport: TransportKind, server: TestServer) throws -> APIClient {
        switch transport {
        case .urlSession: APIClient(baseURL: server.baseURL, transport: TransportKind.sharedURLSessionTransport)
        case .curl: APIClient(baseURL: server.baseURL, transport: try TransportKind.sharedCurlTransport)
        }
    }

    private static func temporaryFile(_ bytes: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-form-\(UUID().uuidString)")
        try bytes.write(to: url)
        return url
    }

    /// Sent through the transport itself, a request that names no `Content-Type` gets the
    /// form's, boundary and all; one that names its own keeps it.
    @Test(arguments: TransportKind.configured)
    func theTransportNamesTheFormsBoundaryUnlessTheRequestNamesAType(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let upload = try RequestBody.multipart(MultipartForm([.text("a", "1")]))
        var request = URLRequest(url: server.url("/anything/form"))
        request.httpMethod = "POST"
        let (body, _) = try await transport.streaming(request, upload)
        #expect(try echo(try await body.collect(upTo: 1 << 20)).headerValues("Content-Type") == [try #require(upload.contentType)])
        request.setValue("multipart/mixed; boundary=own", forHTTPHeaderField: "Content-Type")
        let (own, _) = try await transport.streaming(request, upload)
        #expect(try echo(try await own.collect(upTo: 1 << 20)).headerValues("Content-Type") == ["multipart/mixed; boundary=own"])
    }

    @Test(arguments: TransportKind.configured)
    func aFormArrivesAsAStandardParserReadsIt(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let binaryFile = try Self.temporaryFile(Self.binary)
        let emptyFile = try Self.temporaryFile(Data())
        defer { for file in [binaryFile, emptyFile] { try? FileManager.default.removeItem(at: file) } }
        let form = MultipartForm([
            .text("title", "Grüße, 世界"),
            .text("prénom ☕", "Zoë"),
            .text("a\"b\nc", "quoted\r\nand broken"),
            .file("upload", binaryFile, filename: "résumé \"final\".bin"),
            .file("nothing", emptyFile, filename: "empty.txt", contentType: "text/plain"),
            .data("table", Data("a,b\n1,2\n".utf8), filename: "t.csv", contentType: "text/csv"),
        ])
        let upload = try RequestBody.multipart(form)
        let (body, _) = try await Self.client(transport, server: server).stream(Request("anything/form", method: .post(upload)))
        let received = try echo(try await body.collect(upTo: 1 << 20))

        let contentType = try #require(upload.contentType)
        #expect(received.headerValues("Content-Type") == [contentType])
        #expect(received.headerValues("Content-Length") == [String(try #require(upload.length))], "sent with its length, not chunked")
        #expect(received.headerValues("Transfer-Encoding").isEmpty)

        let parsed = try await ParsedMultipartForm.parse(try #require(received.bodyData), contentType: contentType)
        #expect(parsed.multipart)
        #expect(parsed.defects.isEmpty && parsed.parts.allSatisfy(\.defects.isEmpty), "\(parsed.defects) \(parsed.parts.map(\.defects))")
        try #require(parsed.parts.count == 6)
        #expect(parsed.parts.allSatisfy { $0.disposition == "form-data" })
        // Python does not undo the browsers' percent-escapes; servers that read browser forms do.
        #expect(parsed.parts.map(\.name) == ["title", "prénom ☕", "a%22b%0Ac", "upload", "nothing", "table"])
        #expect(parsed.parts.map(\.filename) == [nil, nil, nil, "résumé %22final%22.bin", "empty.txt", "t.csv"])
        #expect(parsed.parts.map(\.contentType) == [nil, nil, nil, "application/octet-stream", "text/plain", "text/csv"])
        #expect(parsed.parts[0].content == Data("Grüße, 世界".utf8))
        #expect(parsed.parts[2].content == Data("quoted\r\nand broken".utf8))
        #expect(parsed.parts[3].content == Self.binary)
        #expect(parsed.parts[4].size == 0)
        #expect(parsed.parts[5].content == Data("a,b\n1,2\n".utf8))
    }

    @Test(arguments: TransportKind.configured)
    func theRequestsOwnContentTypeWins(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let upload = try RequestBody.multipart(MultipartForm([.text("a", "1")]))
        let request = Request<ResponseBody>("anything", method: .post(upload), headers: ["content-type": "multipart/mixed; boundary=x"])
        let (body, _) = try await Self.client(transport, server: server).stream(request)
        #expect(try echo(try await body.collect(upTo: 1 << 20)).headerValues("Content-Type") == ["multipart/mixed; boundary=x"])
    }

    /// A file is re-read from its start for the second hop: the form can be sent again.
    @Test(arguments: TransportKind.configured)
    func a307SendsTheFileFormAgain(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let file = try Self.temporaryFile(Self.binary)
        defer { try? FileManager.default.removeItem(at: file) }
        let upload = try RequestBody.multipart(MultipartForm([.file("upload", file)]))
        // Through the buffered call: a form with a file goes where any body goes.
        let request = Request<Data>("redirect-to?url=/anything/after&status_code=307", method: .post(upload))
        let received = try echo(try await Self.client(transport, server: server).send(request))
        #expect(received.path == "/anything/after")
        let parsed = try await ParsedMultipartForm.parse(try #require(received.bodyData), contentType: try #require(upload.contentType))
        #expect(parsed.parts.map(\.content) == [Self.binary])
    }

    /// A boundary found in a file stops the upload before the bytes that hold it: the server
    /// never gets a complete body, and the error says which field and file.
    @Test(arguments: TransportKind.configured)
    func aBoundaryInAFileStopsTheUpload(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        var bytes = Data(repeating: 0x61, count: 200_000)
        bytes.append(Data("CollidingBoundary".utf8))
        let file = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let layout = try MultipartLayout(
            form: MultipartForm([.file("doc", file)]), nextBoundary: { "CollidingBoundary" }, fileSize: { _ in Int64(bytes.count) }
        )
        let upload = RequestBody.multipart(layout)
        let expected = MultipartFormError.boundaryInFile(path: file.path, field: "doc")
        let marker = "anything/boundary-\(UUID().uuidString)"
        do {
            _ = try await Self.client(transport, server: server).stream(Request(marker, method: .post(upload)))
            Issue.record("the upload was sent whole")
        } catch let error as APIError {
            // Both engines: the code URLError has for it, and the form's own words.
            guard case .transport(let underlying) = error.kind, let urlError = underlying as? URLError else {
                Issue.record("not a transport failure: \(error)")
                return
            }
            #expect(urlError.code == .unknown)
            #expect(urlError.localizedDescription.contains("producing the request body failed: \(expected.description)"), "\(urlError)")
        }
        #expect(server.lastRequest?.path != "/\(marker)")
    }
}
