import Courier
import CourierTestServer
import Foundation
import Testing
@testable import courier

/// `courier request -w`: curl's write-out syntax, run as a subprocess on both transports, and
/// the format's parsing on its own.
@Suite struct RequestWriteOutTests {
    static let transports = ["curl", "urlsession"]

    /// The values that follow the body, split on spaces.
    private func fields(_ result: CourierToolProcess.Outcome, after body: Int) -> [String] {
        String(decoding: result.stdout.dropFirst(body), as: UTF8.self).split(separator: " ").map(String.init)
    }

    private func seconds(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Double {
        // curl's form: whole seconds, a point, six decimals.
        #expect(text.split(separator: ".").map(\.count).last == 6, "\(text)", sourceLocation: sourceLocation)
        return Double(text) ?? -1
    }

    @Test(arguments: transports)
    func theFormatFollowsTheBodyAfterRedirects(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run([
            "request", "--transport", transport, "-w", "\\n%{http_code} %{num_redirects} %{url_effective}",
            server.url("/redirect/2").absoluteString,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.hasSuffix("}\n200 2 \(server.url("/get").absoluteString)"), "\(result.stdoutText)")
        #expect(result.stderr.isEmpty)
    }

    @Test func curlFillsTimesAddressesAndSizes() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let format = "%{time_namelookup} %{time_connect} %{time_appconnect} %{time_pretransfer} %{time_starttransfer} %{time_total} "
            + "%{remote_ip} %{remote_port} %{local_ip} %{local_port} %{size_request} %{size_header} %{size_download} "
            + "%{num_connects} %{http_version} %{time_redirect}"
        let result = try await CourierToolProcess.run(["request", "--transport", "curl", "-i", "-w", format, server.url("/delay/0.3").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        let separator = try #require(result.stdout.range(of: Data("\r\n\r\n".utf8)))
        let head = String(decoding: result.stdout[..<separator.upperBound], as: UTF8.self)
        let prefix = "content-length: "
        let lengthLine = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(prefix) }
        let length = try #require(lengthLine.flatMap { Int($0.dropFirst(prefix.count)) })
        let values = fields(result, after: separator.upperBound + length)
        #expect(values.count == 16, "\(values)")
        guard values.count == 16 else { return }
        let times: [Double] = values[0..<6].map { seconds($0) }
        #expect(times[1] > 0, "a new connection was made")
        #expect(times[2] == 0, "no TLS over plain HTTP")
        #expect(times[4] >= 0.3, "the server held its head for 0.3 s")
        let (nameLookup, connect, preTransfer, startTransfer, total) = (times[0], times[1], times[3], times[4], times[5])
        #expect(total >= startTransfer)
        #expect(startTransfer >= preTransfer)
        #expect(preTransfer >= connect)
        #expect(connect >= nameLookup)
        #expect(values[6] == "127.0.0.1")
        #expect(values[7] == String(server.port))
        #expect(values[8] == "127.0.0.1")
        #expect((Int(values[9]) ?? 0) > 0)
        #expect((Int(values[10]) ?? 0) > 0)
        // -i writes the head as the transport reports it, not byte for byte, so only roughly.
        #expect((Int(values[11]) ?? 0) > head.utf8.count / 2, "\(values[11])")
        #expect(Int(values[12]) == length)
        #expect(values[13] == "1")
        #expect(values[14] == "1.1")
        #expect(values[15] == "0.000000")
    }

    /// URLSession measures none of libcurl's phases below the head: they are written as curl
    /// writes a value it has not got. The first byte and the total are what its engine measured
    /// around FoundationNetworking, and the version it spoke is not known.
    @Test func urlSessionWritesOnlyWhatItCanMeasure() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let format = " %{time_connect} %{time_starttransfer} %{time_total} %{remote_ip} %{remote_port} %{size_header} %{num_connects} %{http_version} %{http_code} %{size_download}"
        let result = try await CourierToolProcess.run(["request", "--transport", "urlsession", "-w", format, server.url("/delay/0.3").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        let text = result.stdoutText
        let body = try #require(text.range(of: "} ", options: .backwards))
        let values = text[body.upperBound...].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        try #require(values.count == 10, "\(values)")
        #expect(values[0] == "0.000000")
        #expect(seconds(values[1]) >= 0.3, "the server held its head for 0.3 s")
        #expect(seconds(values[2]) >= seconds(values[1]))
        #expect(values[3] == "")
        #expect(values[4] == "0")
        #expect(values[5] == "0")
        #expect(values[6] == "0")
        #expect(values[7] == "0")
        #expect(values[8] == "200")
        #expect(Int(values[9]) == text.utf8.count - text[body.lowerBound...].utf8.count + 1)
    }

    @Test(arguments: transports)
    func aFailedRequestStillWritesTheFormat(transport: String) async throws {
        let refusing = try await RefusingPort.open()
        defer { Task { try? await refusing.close() } }
        let result = try await CourierToolProcess.run(["request", "--transport", transport, "-w", "%{http_code} %{size_download}", refusing.url("/").absoluteString])
        #expect(result.status == 7)
        #expect(result.stdoutText == "000 0")
        #expect(result.stderrLines.count == 1, "\(result.stderrText)")
    }

    /// A request that failed after the connection was made still has its phases, read from the
    /// error the engine threw.
    @Test func curlWritesThePhasesOfAFailedRequest() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run([
            "request", "--transport", "curl", "-w", "%{http_code} %{time_connect} %{remote_ip} %{time_total}", server.url("/close").absoluteString,
        ])
        #expect(result.status == 52, "\(result.stderrText)")
        let values = result.stdoutText.split(separator: " ").map(String.init)
        try #require(values.count == 4, "\(values)")
        #expect(values[0] == "000")
        #expect(seconds(values[1]) > 0)
        #expect(values[2] == "127.0.0.1")
        #expect(seconds(values[3]) >= seconds(values[1]))
    }

    @Test(arguments: transports)
    func anUnknownVariableWarnsAndWritesNothing(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run([
            "request", "--transport", transport, "-w", "|%{nope}|%%|\\t|\\q|%z|%{time_total", server.url("/bytes/3").absoluteString,
        ])
        #expect(result.status == 0)
        #expect(result.stdout.dropFirst(3) == Data("||%|\t|\\q|%z|%{time_total".utf8))
        #expect(result.stderrText == "courier: unknown --write-out variable: 'nope'\n")
    }

    @Test(arguments: transports)
    func aDownloadWritesWhatTheEngineMeasured(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await CourierToolProcess.run([
            "request", "--transport", transport, "-o", path, "-w",
            "%{http_code} %{size_download} %{time_starttransfer} %{time_total} %{num_redirects}",
            server.url("/redirect-to?url=/delay/0.2").absoluteString,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let values = result.stdoutText.split(separator: " ").map(String.init)
        try #require(values.count == 5, "\(values)")
        #expect(values[0] == "200")
        #expect((Int(values[1]) ?? 0) > 0)
        #expect(seconds(values[2]) >= 0.2, "the server held its head for 0.2 s")
        #expect(seconds(values[3]) >= seconds(values[2]))
        #expect(values[4] == "1")
    }

    @Test func curlsDownloadHasEveryPhase() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await CourierToolProcess.run([
            "request", "--transport", "curl", "-o", path, "-w", "%{time_connect} %{remote_ip} %{size_download} %{http_version}",
            server.url("/stream-bytes/5000").absoluteString,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let values = result.stdoutText.split(separator: " ").map(String.init)
        try #require(values.count == 4, "\(values)")
        #expect(seconds(values[0]) > 0)
        #expect(values[1] == "127.0.0.1")
        #expect(values[2] == "5000")
        #expect(values[3] == "1.1")
    }

    // MARK: The format alone

    @Test func timesAreWrittenAsCurlWritesThem() {
        #expect(WriteOut.seconds(.microseconds(1_234_567)) == "1.234567")
        #expect(WriteOut.seconds(.microseconds(12)) == "0.000012")
        #expect(WriteOut.seconds(nil) == "0.000000")
    }

    @Test func phasesAddUpOverHopsAndAddressesSplit() {
        var first = ExchangeMetrics()
        first.connect = .microseconds(100)
        first.total = .microseconds(400)
        first.connectionReused = false
        first.responseHeaderBytes = 50
        var second = ExchangeMetrics()
        second.total = .microseconds(300)
        second.connectionReused = true
        second.responseHeaderBytes = 60
        second.responseBodyBytes = 7
        second.remoteAddress = "[::1]:8080"
        var values = WriteOut.Values()
        values.hops = [first, second]
        values.statusCode = 204
        values.httpVersion = "HTTP/2"
        let (text, unknown) = WriteOut(
            format: "%{time_connect} %{time_redirect} %{size_header} %{size_download} %{num_connects} %{num_redirects} %{remote_ip} %{remote_port} %{http_code} %{http_version}"
        ).render(values)
        #expect(unknown.isEmpty)
        #expect(text == "0.000100 0.000400 110 7 1 1 ::1 8080 204 2")
    }
}
