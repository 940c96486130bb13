#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// `download(for:)` and `upload(for:fromFile:)` on every transport, against the test server.
///
/// Serialized: the failure tests check that no download file is left in the temporary
/// directory, which a download running beside them would confuse.
@Suite(.testServer, .serialized, .timeLimit(.minutes(5))) struct TransportFileTests {
    /// Collects progress reports.
    private final class Reports: Sendable {
        private let list = Locked<[TransferProgress]>([])
        var observer: @Sendable (TransferProgress) -> Void { { progress in self.list.withLock { $0.append(progress) } } }
        var all: [TransferProgress] { list.withLock { $0 } }
    }

    @Test(arguments: TransportKind.configured)
    func aDownloadWritesTheBodyToANewFile(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let reports = Reports()
        let (file, response) = try await transport.download(URLRequest(url: server.url("/bytes/3000000?seed=5")), progress: reports.observer)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(file.deletingLastPathComponent().standardizedFileURL == FileManager.default.temporaryDirectory.standardizedFileURL)
        #expect(try Data(contentsOf: file) == TestServer.deterministicBytes(count: 3_000_000, seed: 5))
        let last = try #require(reports.all.last)
        #expect(last.bytesReceived == 3_000_000)
        #expect(last.expectedBytesToReceive == 3_000_000)
        #expect(last.isFinished)
        #expect(reports.all.map(\.bytesReceived) == reports.all.map(\.bytesReceived).sorted())
    }

    /// A download into a file is bounded by the disk, not by the limit on bodies kept in
    /// memory, whichever the engine: both downloads write a body eight times the limit whole,
    /// and `data(for:)` of the same response still fails at the limit.
    @Test(arguments: TransportKind.configured)
    func aDownloadIsNotBoundedByTheLimitOnBodiesInMemory(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        var policies = Policies()
        policies.maximumResponseBytes = 1 << 20
        let count = 8 << 20
        let request = URLRequest(url: server.url("/zeros/\(count)"))
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("courier-unbounded-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        try await transport.withIsolatedHTTPTransport(policies: policies) { http in
            let (file, response) = try await http.download(for: request)
            defer { try? FileManager.default.removeItem(at: file) }
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try Self.size(of: file) == count)

            let resumable = try await http.download(for: request, to: destination)
            #expect((resumable as? HTTPURLResponse)?.statusCode == 200)
            #expect(try Self.size(of: destination) == count)

            let error = await #expect(throws: URLError.self) { _ = try await http.data(for: request) }
            #expect(error?.code == .dataLengthExceedsMaximum)
        }
    }

    @Test(arguments: TransportKind.configured)
    func twoDownloadsGetTwoFiles(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (first, _) = try await transport.download(URLRequest(url: server.url("/bytes/10")))
        let (second, _) = try await transport.download(URLRequest(url: server.url("/zeros/20")))
        defer { for file in [first, second] { try? FileManager.default.removeItem(at: file) } }
        #expect(first != second)
        #expect(try Data(contentsOf: first) == TestServer.deterministicBytes(count: 10, seed: 0))
        #expect(try Data(contentsOf: second) == Data(count: 20))
    }

    @Test(arguments: TransportKind.configured)
    func aFailedDownloadLeavesNoFile(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let before = try Self.downloadFiles()
        await #expect(throws: URLError.self) {
            _ = try await transport.download(URLRequest(url: server.url("/truncate/200000")))
        }
        #expect(try Self.downloadFiles() == before)
    }

    @Test(arguments: TransportKind.configured)
    func aCancelledDownloadLeavesNoFile(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let before = try Self.downloadFiles()
        // A body that lasts 300 s: the download cannot finish before the cancel, however late
        // the cancel comes on a loaded machine; one that ignored it would reach the time limit.
        let task = Task { try await transport.download(URLRequest(url: server.url("/drip/3000?interval_ms=100"))) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        await #expect(throws: (any Error).self) { _ = try await task.value }
        #expect(try Self.downloadFiles() == before)
    }

    @Test(arguments: TransportKind.configured)
    func aFileUploadArrivesWholeAndReportsItsProgress(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let bytes = TestServer.deterministicBytes(count: 2_500_000, seed: 9)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var request = URLRequest(url: server.url("/anything"))
        request.httpMethod = "PUT"
        let reports = Reports()
        let (data, response) = try await transport.upload(request, fromFile: file, progress: reports.observer)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try echo(data).bodyData == bytes)
        #expect(try echo(data).headerValues("Content-Length") == ["2500000"])
        #expect(reports.all.allSatisfy { $0.expectedBytesToSend == 2_500_000 })
        #expect(reports.all.contains { $0.bytesSent == 2_500_000 })
        #expect(reports.all.last?.isFinished == true)
    }

    @Test(arguments: TransportKind.configured)
    func anUploadLargerThanTheServerKeepsGoesThroughTheSink(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let count = 80 << 20
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-sink-\(UUID().uuidString)")
        try Data(count: count).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var request = URLRequest(url: server.url("/sink"))
        request.httpMethod = "POST"
        let (data, _) = try await transport.upload(request, fromFile: file, progress: nil)
        #expect(try JSONDecoder().decode([String: Int].self, from: data) == ["bytes": count])
    }

    @Test(arguments: TransportKind.configured)
    func anUploadFromDataArrivesWholeAndReportsItsProgress(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let bytes = TestServer.deterministicBytes(count: 100_000, seed: 2)
        var request = URLRequest(url: server.url("/anything"))
        request.httpMethod = "POST"
        let reports = Reports()
        let (data, _) = try await transport.upload(request, from: bytes, progress: reports.observer)
        #expect(try echo(data).bodyData == bytes)
        #expect(reports.all.allSatisfy { $0.expectedBytesToSend == 100_000 })
        #expect(reports.all.contains { $0.bytesSent == 100_000 })
    }

    @Test(arguments: TransportKind.configured)
    func anUploadOfAMissingFileFailsBeforeSending(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        var request = URLRequest(url: server.url("/sink"))
        request.httpMethod = "POST"
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("courier-missing-\(UUID().uuidString)")
        await #expect(throws: (any Error).self) { _ = try await transport.upload(request, fromFile: missing, progress: nil) }
    }

    private static func size(of file: URL) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue
    }

    /// The download files in the temporary directory.
    private static func downloadFiles() throws -> Set<String> {
        let names = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
        return Set(names.filter { $0.hasPrefix("Courier-") && $0.hasSuffix(".tmp") })
    }
}

/// One transport per kind for these tests, called through their own file methods.
private enum FileTransports {
    static let urlSession = URLSessionTransport()
    static let curl = Result { () throws(CurlError) in try CurlTransport() }
}

private extension TransportKind {
    func download(_ request: URLRequest, progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws -> (URL, URLResponse) {
        switch self {
        case .urlSession: try await FileTransports.urlSession.download(for: request, progress: progress)
        case .curl: try await FileTransports.curl.get().download(for: request, progress: progress)
        }
    }

    func upload(_ request: URLRequest, fromFile file: URL, progress: (@Sendable (TransferProgress) -> Void)?) async throws -> (Data, URLResponse) {
        switch self {
        case .urlSession: try await FileTransports.urlSession.upload(for: request, fromFile: file, progress: progress)
        case .curl: try await FileTransports.curl.get().upload(for: request, fromFile: file, progress: progress)
        }
    }

    func upload(_ request: URLRequest, from data: Data, progress: (@Sendable (TransferProgress) -> Void)?) async throws -> (Data, URLResponse) {
        switch self {
        case .urlSession: try await FileTransports.urlSession.upload(for: request, from: data, progress: progress)
        case .curl: try await FileTransports.curl.get().upload(for: request, from: data, progress: progress)
        }
    }
}
