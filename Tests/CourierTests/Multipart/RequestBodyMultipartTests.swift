import Foundation
import Testing
@testable import Courier

/// `RequestBody.multipart(_:)` produced without sockets: the bytes, the length the engines send
/// as `Content-Length`, files read while producing, and the typed failures.
@Suite struct RequestBodyMultipartTests {
    private static func temporaryFile(_ bytes: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-multipart-\(UUID().uuidString)")
        try bytes.write(to: url)
        return url
    }

    @Test func aFormInMemoryIsOneReplayableBlockOfBytes() throws {
        let body = try RequestBody.multipart(MultipartForm([.text("a", "1"), .data("b", Data([0, 1, 2]))]))
        guard case .data(let data) = body.source else {
            Issue.record("expected bytes in memory")
            return
        }
        #expect(body.length == Int64(data.count))
        #expect(body.isReplayable)
        let contentType = try #require(body.contentType)
        #expect(contentType.hasPrefix("multipart/form-data; boundary=CourierFormBoundary"))
    }

    @Test func aFileIsReadWhileProducedAndTheLengthIsExact() async throws {
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let file = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let body = try RequestBody.multipart(MultipartForm([.text("a", "1"), .file("f", file)]))
        guard case .chunks = body.source else {
            Issue.record("a file must be streamed, not read into memory")
            return
        }
        let produced = try await body.collect()
        #expect(body.length == Int64(produced.count))
        #expect(MultipartLayout.occurs(bytes, in: produced))
        #expect(body.isReplayable)
        #expect(try await body.collect() == produced, "produced again, it is the same body")
    }

    @Test func anEmptyFileIsAnEmptyPart() async throws {
        let file = try Self.temporaryFile(Data())
        defer { try? FileManager.default.removeItem(at: file) }
        let layout = try MultipartLayout(form: MultipartForm([.file("f", file, filename: "e")]), nextBoundary: { "B" }, fileSize: { _ in 0 })
        let produced = try await RequestBody.multipart(layout).collect()
        #expect(String(decoding: produced, as: UTF8.self) == """
            --B\r\nContent-Disposition: form-data; name="f"; filename="e"\r\n\
            Content-Type: application/octet-stream\r\n\r\n\r\n--B--\r\n
            """)
    }

    @Test func aBoundaryInAFileStopsTheBodyWithATypedError() async throws {
        // Across the first 64 KiB piece and the second, so the scan must join them.
        var bytes = Data(repeating: 0x61, count: UploadBodyReader.fileChunkSize - 3)
        bytes.append(Data("SEPARATOR".utf8))
        bytes.append(Data(repeating: 0x62, count: 1000))
        let file = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let form = MultipartForm([.file("upload", file)])
        let layout = try MultipartLayout(form: form, nextBoundary: { "SEPARATOR" }, fileSize: { _ in Int64(bytes.count) })
        await #expect(throws: MultipartFormError.boundaryInFile(path: file.path, field: "upload")) {
            _ = try await RequestBody.multipart(layout).collect()
        }
    }

    @Test func aFileThatGrewOrShrankFailsRatherThanBreakTheContentLength() async throws {
        let file = try Self.temporaryFile(Data(count: 10))
        defer { try? FileManager.default.removeItem(at: file) }
        // A boundary the file's name (a UUID in capitals) cannot hold.
        let form = MultipartForm([.file("f", file)])
        let shrunk = try MultipartLayout(form: form, nextBoundary: { "XYZZY" }, fileSize: { _ in 12 })
        await #expect(throws: MultipartFormError.fileChangedSize(path: file.path, field: "f", expected: 12, actual: 10)) {
            _ = try await RequestBody.multipart(shrunk).collect()
        }
        let grown = try MultipartLayout(form: form, nextBoundary: { "XYZZY" }, fileSize: { _ in 4 })
        await #expect(throws: MultipartFormError.fileChangedSize(path: file.path, field: "f", expected: 4, actual: 10)) {
            _ = try await RequestBody.multipart(grown).collect()
        }
    }

    @Test func aMissingFileFailsBeforeAnythingIsSent() {
        let missing = URL(fileURLWithPath: "/nonexistent/courier-\(UUID().uuidString)")
        #expect(throws: (any Error).self) { try RequestBody.multipart(MultipartForm([.file("f", missing)])) }
    }

    @Test func theErrorsSayWhatHappenedAndWhere() {
        let boundary = MultipartFormError.boundaryInFile(path: "/tmp/x", field: "doc").description
        #expect(boundary.contains("\"doc\"") && boundary.contains("/tmp/x") && boundary.contains("boundary"))
        let grown = MultipartFormError.fileChangedSize(path: "/tmp/x", field: "doc", expected: 4, actual: 10).description
        #expect(grown.contains("4 bytes") && grown.contains("more than 4"))
    }
}
