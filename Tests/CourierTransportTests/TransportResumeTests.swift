#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// `download(for:to:)` on every transport against the test server's ranged routes: a cut
/// download resumed, and each answer a server may give to the range it asks for.
@Suite(.testServer, .timeLimit(.minutes(5))) struct TransportResumeTests {
    private static let count = 3_000_000

    /// A file path of its own in the temporary directory, and its record's, removed afterwards.
    private final class Destination {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-resume-\(UUID().uuidString).bin")
        var record: URL { file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".courier-resume") }
        var bytes: Data { (try? Data(contentsOf: file)) ?? Data() }
        var hasRecord: Bool { FileManager.default.fileExists(atPath: record.path) }

        /// A partial file holding `bytes`, with a record for `url` and `entityTag`, as an earlier
        /// call would have left it.
        func seed(_ bytes: Data, url: URL, entityTag: String) throws {
            try bytes.write(to: file)
            try Data("courier-resume 1\nurl \(url.absoluteString)\netag \(entityTag)\n".utf8).write(to: record)
        }

        deinit {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: record)
        }
    }

    private func status(_ response: URLResponse) -> Int? { (response as? HTTPURLResponse)?.statusCode }

    @Test(arguments: TransportKind.configured)
    func aCutDownloadResumedHoldsExactlyTheBody(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let destination = Destination()
        let url = server.url("/range/\(Self.count)?seed=7&cut_at=1200000")
        await #expect(throws: URLError.self) { _ = try await transport.download(URLRequest(url: url), to: destination.file) }
        let kept = destination.bytes.count
        #expect(kept > 0 && kept <= 1_200_000)
        #expect(destination.hasRecord)
        let response = try await transport.download(URLRequest(url: url), to: destination.file)
        #expect(status(response) == 206)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Range") == "bytes \(kept)-\(Self.count - 1)/\(Self.count)")
        #expect(destination.bytes == TestServer.deterministicBytes(count: Self.count, seed: 7))
        #expect(!destination.hasRecord)
    }

    @Test(arguments: TransportKind.configured)
    func aCancelledDownloadKeepsWhatArrivedForTheNextCall(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let destination = Destination()
        // A chunk a second: 46 s for the whole body, so the cancel comes while it arrives
        // however slow the machine; a download that ignored the cancel would reach the limit.
        // The resumed answer, which does not start at byte 0, comes without the pauses.
        let slow = server.url("/range/\(Self.count)?seed=10&interval_ms=1000")
        let file = destination.file
        let task = Task { try await transport.download(URLRequest(url: slow), to: file) }
        while destination.bytes.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        await #expect(throws: (any Error).self) { _ = try await task.value }
        let kept = destination.bytes.count
        #expect(kept > 0 && kept < Self.count)
        #expect(destination.hasRecord)
        let response = try await transport.download(URLRequest(url: slow), to: destination.file)
        #expect(status(response) == 206)
        let bytes = destination.bytes
        let expected = TestServer.deterministicBytes(count: Self.count, seed: 10)
        let firstDifference = zip(bytes, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(bytes == expected, "kept \(kept) bytes; the file has \(bytes.count), first differing at \(firstDifference.map(String.init) ?? "none")")
    }

    @Test(arguments: TransportKind.configured)
    func aStrongLastModifiedServesWhenThereIsNoEntityTag(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let destination = Destination()
        let url = server.url("/range/\(Self.count)?seed=8&etag=weak&cut_at=1000000")
        await #expect(throws: URLError.self) { _ = try await transport.download(URLRequest(url: url), to: destination.file) }
        #expect(String(decoding: (try? Data(contentsOf: destination.record)) ?? Data(), as: UTF8.self).contains("last-modified "))
        let response = try await transport.download(URLRequest(url: url), to: destination.file)
        #expect(status(response) == 206)
        #expect(destination.bytes == TestServer.deterministicBytes(count: Self.count, seed: 8))
    }

    @Test(arguments: TransportKind.configured)
    func aCutDownloadWithoutValidatorsKeepsNoRecordAndStartsOver(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let destination = Destination()
        let cut = server.url("/range/\(Self.count)?seed=9&etag=none&last_modified=none&cut_at=1000000")
        await #expect(throws: URLError.self) { _ = try await transport.download(URLRequest(url: cut), to: destination.file) }
        #expect(!destination.bytes.isEmpty)
        #expect(!destination.hasRecord)
        let whole = server.url("/range/\(Self.count)?seed=9&etag=none&last_modified=none")
        let response = try await transport.download(URLRequest(url: whole), to: destination.file)
        #expect(status(response) == 200)
        #expect(destination.bytes == TestServer.deterministicBytes(count: Self.count, seed: 9))
    }

    @Test(arguments: TransportKind.configured)
    func aServerThatIgnoresTheRangeGetsTheFileRewritten(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let destination = Destination()
        let url = server.url("/range/\(Self.count)?seed=3&ignore_range=1")
        try destination.seed(Data(repeating: 0xAA, count: 5000), url: url, entityTag: "\"range-\(Self.count)-3\"")
        let response = try await transport.download(URLRequest(url: url), to: destination.file)
        #expect(status(response) == 200)
        #expect(destination.bytes == TestServer.deterministicBytes(count: Self.count, seed: 3))
        #expect(!destination.hasRecord)
    }

    @Test(arguments: TransportKind.configured)
    func aChangedValidatorRestartsWithTheNewVersion(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let destination = Destination()
        let url = server.url("/range/changing/\(UUID().uuidString)/\(Self.count)?cut_at=1500000")
        await #expect(throws: URLError.self) { _ = try await transport.download(URLRequest(url: url), to: destination.file) }
        #expect(destination.hasRecord)
        let response = try await transport.download(URLRequest(url: url), to: destination.file)
        #expect(status(response) == 200)
        #expect(destination.bytes == TestServer.deterministicBytes(count: Self.count, seed: 2))
        #expect(!destination.hasRecord)
    }

    @Test(arguments: TransportKind.configured)
    func a416ForTheFilesSizeLeavesTheCompleteFile(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let destination = Destination()
        let url = server.url("/range/4000?seed=4")
        let body = TestServer.deterministicBytes(count: 4000, seed: 4)
        try destination.seed(body, url: url, entityTag: "\"range-4000-4\"")
        let response = try await transport.download(URLRequest(url: url), to: destination.file)
        #expect(status(response) == 416)
        #expect(destination.bytes == body)
        #expect(!destination.hasRecord)
    }

    @Test(arguments: TransportKind.configured)
    func a416ForAnotherSizeStartsOverWithoutARange(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let destination = Destination()
        let url = server.url("/range/4000?seed=5")
        try destination.seed(Data(repeating: 1, count: 6000), url: url, entityTag: "\"range-4000-5\"")
        let response = try await transport.download(URLRequest(url: url), to: destination.file)
        #expect(status(response) == 200)
        #expect(destination.bytes == TestServer.deterministicBytes(count: 4000, seed: 5))
    }

    @Test(arguments: TransportKind.configured)
    func a206ElsewhereIsATypedErrorAndTheFileStaysAsItWas(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let destination = Destination()
        let url = server.url("/range/4000?seed=6&misplace=1")
        let partial = Data(repeating: 2, count: 1000)
        try destination.seed(partial, url: url, entityTag: "\"range-4000-6\"")
        let error = await #expect(throws: URLError.self) { _ = try await transport.download(URLRequest(url: url), to: destination.file) }
        #expect(error?.code == .badServerResponse)
        #expect(error?.localizedDescription.contains("GET \(url.absoluteString): asked for the bytes from 1000") == true)
        #expect(error?.localizedDescription.contains("bytes 0-2999/4000") == true)
        #expect(destination.bytes == partial)
        #expect(destination.hasRecord)
    }

    @Test(arguments: TransportKind.configured)
    func anErrorStatusLeavesThePartialFileForLater(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let destination = Destination()
        let url = server.url("/status/503")
        let partial = Data(repeating: 3, count: 1000)
        try destination.seed(partial, url: url, entityTag: "\"x\"")
        let response = try await transport.download(URLRequest(url: url), to: destination.file)
        #expect(status(response) == 503)
        #expect(destination.bytes == partial)
        #expect(destination.hasRecord)
    }
}

/// One transport per kind for these tests, called through `download(for:to:)`.
private enum ResumeTransports {
    static let urlSession = URLSessionTransport()
    static let curl = Result { () throws(CurlError) in try CurlTransport() }
}

private extension TransportKind {
    func download(_ request: URLRequest, to file: URL) async throws -> URLResponse {
        switch self {
        case .urlSession: try await ResumeTransports.urlSession.download(for: request, to: file)
        case .curl: try await ResumeTransports.curl.get().download(for: request, to: file)
        }
    }
}
