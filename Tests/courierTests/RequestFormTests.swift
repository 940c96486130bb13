import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// `courier request -F`, curl's multipart form, as the server receives it on both transports,
/// read back by Python's standard-library parser.
@Suite struct RequestFormTests {
    static let transports = ["curl", "urlsession"]

    private static func file(_ bytes: Data, named name: String = UUID().uuidString) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-form-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }

    /// Runs `courier request -F…` against `/anything` and returns what the server recorded and
    /// how Python parses its body.
    private static func send(
        _ arguments: [String], transport: String, standardInput: FileHandle = .nullDevice
    ) async throws -> (RecordedRequest, ParsedMultipartForm, CourierToolProcess.Outcome) {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(
            ["request", "--transport", transport] + arguments + [server.url("/anything").absoluteString], standardInput: standardInput
        )
        #expect(result.status == 0, "\(result.stderrText)")
        let recorded = try #require(server.lastRequest)
        let contentType = try #require(recorded.value(for: "Content-Type"))
        return (recorded, try await ParsedMultipartForm.parse(recorded.body, contentType: contentType), result)
    }

    @Test(arguments: transports)
    func fieldsFilesAndAFilesTextArriveAsCurlSendsThem(transport: String) async throws {
        let binary = Data((0...255).map { UInt8($0) } + Array("\r\n--\r\n".utf8))
        let binaryPath = try Self.file(binary, named: "photo.png")
        let emptyPath = try Self.file(Data(), named: "empty.txt")
        let notePath = try Self.file(Data("note from a file\n".utf8))
        let (recorded, parsed, _) = try await Self.send([
            "-F", "title=Grüße, 世界",
            "-F", "photo=@\(binaryPath)",
            "-F", "renamed=@\(binaryPath);type=application/x-thing;filename=\"naïve \\\"quoted\\\"; name.bin\"",
            "-F", "empty=@\(emptyPath)",
            "-F", "note=<\(notePath)",
            "-F", "typed=hello;type=text/plain; charset=utf-8",
        ], transport: transport)

        #expect(recorded.method == "POST")
        #expect(recorded.value(for: "Content-Length") == String(recorded.body.count))
        #expect(recorded.value(for: "Transfer-Encoding") == nil)
        #expect(parsed.defects.isEmpty && parsed.parts.allSatisfy(\.defects.isEmpty))
        try #require(parsed.parts.count == 6)
        #expect(parsed.parts.map(\.name) == ["title", "photo", "renamed", "empty", "note", "typed"])
        #expect(parsed.parts.map(\.filename) == [nil, "photo.png", "naïve %22quoted%22; name.bin", "empty.txt", nil, nil])
        #expect(parsed.parts.map(\.contentType) == [nil, "image/png", "application/x-thing", "text/plain", nil, "text/plain"])
        #expect(parsed.parts[0].content == Data("Grüße, 世界".utf8))
        #expect(parsed.parts[1].content == binary)
        #expect(parsed.parts[2].content == binary)
        #expect(parsed.parts[3].size == 0)
        #expect(parsed.parts[4].content == Data("note from a file\n".utf8))
        #expect(parsed.parts[5].content == Data("hello".utf8))
        #expect(recorded.body.range(of: Data("charset=utf-8".utf8)) != nil)
    }

    @Test(arguments: transports)
    func aFileFieldCanComeFromStdin(transport: String) async throws {
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: try Self.file(Data("from stdin".utf8))))
        defer { try? input.close() }
        let (_, parsed, _) = try await Self.send(["-F", "text=<-"], transport: transport, standardInput: input)
        #expect(parsed.parts.map(\.name) == ["text"])
        #expect(parsed.parts.map(\.filename) == [nil])
        #expect(parsed.parts.first?.content == Data("from stdin".utf8))
    }

    /// The whole body, byte for byte, as curl 7.88 and 8.14 send `-F name=@-`: the part
    /// named `-` and with no `Content-Type`, since nothing says what stdin holds.
    @Test(arguments: transports)
    func aFileFromStdinIsSentAsCurlSendsIt(transport: String) async throws {
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: try Self.file(Data("from stdin".utf8))))
        defer { try? input.close() }
        let (recorded, _, _) = try await Self.send(["-F", "name=@-"], transport: transport, standardInput: input)
        let contentType = try #require(recorded.value(for: "Content-Type"))
        let boundary = try #require(contentType.components(separatedBy: "boundary=").last)
        #expect(contentType == "multipart/form-data; boundary=\(boundary)")
        let expected = "--\(boundary)\r\nContent-Disposition: form-data; name=\"name\"; filename=\"-\"\r\n\r\nfrom stdin\r\n--\(boundary)--\r\n"
        #expect(recorded.body == Data(expected.utf8))
        #expect(recorded.value(for: "Content-Length") == String(expected.utf8.count))
    }

    /// The `Content-Type` curl gives each part, as curl 7.88 and 8.14 were seen to send it:
    /// libcurl guesses from the extension of the file name sent, then for a file from its
    /// path's, then `application/octet-stream` for a file; it leaves stdin and a text field
    /// with an unknown name without one, and a field without a file name never `text/plain`.
    @Test(arguments: transports)
    func eachPartGetsTheTypeCurlGivesIt(transport: String) async throws {
        let bin = try Self.file(Data("b".utf8), named: "up.bin")
        let txt = try Self.file(Data("t".utf8), named: "up.txt")
        let html = try Self.file(Data("<p>".utf8), named: "up.html")
        let (_, parsed, _) = try await Self.send([
            "-F", "a=@\(bin);filename=x.txt",
            "-F", "b=@\(txt);filename=x.bin",
            "-F", "c=@\(bin)",
            "-F", "d=<\(html)",
            "-F", "e=<\(txt)",
            "-F", "f=hello;filename=x.bin",
            "-F", "g=hello;filename=x.txt",
            "-F", "h=hello;type=text/plain",
        ], transport: transport)
        #expect(parsed.defects.isEmpty && parsed.parts.allSatisfy(\.defects.isEmpty))
        #expect(parsed.parts.map(\.name) == ["a", "b", "c", "d", "e", "f", "g", "h"])
        #expect(parsed.parts.map(\.filename) == ["x.txt", "x.bin", "up.bin", nil, nil, "x.bin", "x.txt", nil])
        #expect(parsed.parts.map(\.contentType) == [
            "text/plain", "text/plain", "application/octet-stream", "text/html", nil, nil, "text/plain", "text/plain",
        ])
    }

    @Test(arguments: [("name=@-;filename=x.txt", "x.txt", "text/plain"), ("name=@-;filename=x.bin", "x.bin", nil), ("name=@-;type=text/csv", "-", "text/csv")])
    func aFileFromStdinIsTypedByTheNameItIsSentWith(field: String, filename: String, contentType: String?) async throws {
        for transport in Self.transports {
            let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: try Self.file(Data("a,b".utf8))))
            defer { try? input.close() }
            let (_, parsed, _) = try await Self.send(["-F", field], transport: transport, standardInput: input)
            #expect(parsed.parts.map(\.filename) == [filename], "\(transport)")
            #expect(parsed.parts.map(\.contentType) == [contentType], "\(transport)")
            #expect(parsed.parts.first?.content == Data("a,b".utf8), "\(transport)")
        }
    }

    @Test(arguments: transports)
    func anUnknownParameterIsSkippedWithCurlsWarning(transport: String) async throws {
        let (_, parsed, result) = try await Self.send(["-F", "a=1;colour=red"], transport: transport)
        #expect(parsed.parts.first?.content == Data("1".utf8))
        #expect(result.stderrText.contains("skip unknown form field: colour=red"))
    }

    @Test(arguments: transports)
    func xChoosesAnotherMethod(transport: String) async throws {
        let (recorded, parsed, _) = try await Self.send(["-X", "PUT", "-F", "a=1"], transport: transport)
        #expect(recorded.method == "PUT")
        #expect(parsed.parts.count == 1)
    }

    @Test(arguments: [["-d", "x"], ["--json", "{}"], ["-F", "novalue"], ["-F", "=nameless"], ["-F", "f=@a,b"], ["-F", "f=@a;headers=@h"]])
    func malformedOrConflictingFormsAreUsageErrors(arguments: [String]) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let extra = arguments.first == "-F" ? [] : ["-F", "a=1"]
        let result = try await CourierToolProcess.run(["request"] + extra + arguments + [server.url("/anything").absoluteString])
        #expect(result.status == 64, "\(result.stderrText)")
        #expect(result.stderrLines.count == 1, "\(result.stderrText)")
        #expect(server.requestCount == 0)
    }

    @Test(arguments: transports)
    func aMissingFileFailsWithCurlsReadErrorBeforeSending(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let missing = "/nonexistent/courier-\(UUID().uuidString)"
        let result = try await CourierToolProcess.run(["request", "--transport", transport, "-F", "f=@\(missing)", server.url("/anything").absoluteString])
        #expect(result.status == 26)
        #expect(result.stderrText.contains("cannot read the request body"), "\(result.stderrText)")
        #expect(server.requestCount == 0)
    }

    @Test(arguments: transports)
    func withOutputTheFormIsSentAndTheBodyWritten(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let output = temporaryPath(".json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try await CourierToolProcess.run(["request", "--transport", transport, "-F", "a=1", "-o", output, server.url("/anything").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        let recorded = try #require(server.lastRequest)
        let parsed = try await ParsedMultipartForm.parse(recorded.body, contentType: try #require(recorded.value(for: "Content-Type")))
        #expect(parsed.parts.map(\.name) == ["a"])
        #expect(FileManager.default.fileExists(atPath: output))
    }
}
