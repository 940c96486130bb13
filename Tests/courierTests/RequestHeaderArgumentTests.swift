import CourierTestServer
import Foundation
import Testing

/// `courier request -H`, as the server receives it, on both transports.
@Suite struct RequestHeaderArgumentTests {
    static let transports = ["curl", "urlsession"]

    /// Runs `courier request` with `arguments` before the URL of `/anything` and returns the
    /// request the server recorded.
    private func send(_ arguments: [String], transport: String) async throws -> RecordedRequest {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["request", "--transport", transport] + arguments + [server.url("/anything").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        return try #require(server.lastRequest)
    }

    @Test(arguments: transports)
    func repeatedNamesAreJoinedInOrderUnderTheFirstSpelling(transport: String) async throws {
        let received = try await send(["-H", "X-Tag: one", "-H", "x-tag: two", "-H", "X-TAG: three, four"], transport: transport)
        #expect(received.values(for: "X-Tag") == ["one, two, three, four"])
        #expect(received.headers.contains { $0.name == "X-Tag" }, "\(received.headers)")
    }

    @Test(arguments: transports)
    func cookiesAreJoinedWithSemicolons(transport: String) async throws {
        let received = try await send(["-H", "Cookie: a=1", "-H", "cookie: b=2"], transport: transport)
        #expect(received.values(for: "Cookie") == ["a=1; b=2"])
    }

    @Test(arguments: transports)
    func semicolonSendsAnEmptyValue(transport: String) async throws {
        let received = try await send(["-H", "X-Empty;"], transport: transport)
        #expect(received.values(for: "X-Empty") == [""])
    }

    @Test(arguments: transports)
    func anEmptyValueBesideOthersIsLeftOut(transport: String) async throws {
        let received = try await send(["-H", "X-Tag;", "-H", "X-Tag: one"], transport: transport)
        #expect(received.values(for: "X-Tag") == ["one"])
    }

    /// curl's `Name:` sends nothing under that name and drops the tool's own default.
    @Test(arguments: transports)
    func colonAloneDropsTheDefaultAndSendsNothing(transport: String) async throws {
        let received = try await send(["--json", "{}", "-H", "Accept:", "-H", "X-Gone:"], transport: transport)
        #expect(received.values(for: "Accept") != ["application/json"], "\(received.headers)")
        #expect(received.values(for: "X-Gone").isEmpty)
        #expect(received.values(for: "Content-Type") == ["application/json"])
    }

    /// As in curl, `Name:` does not take back a value given on another -H.
    @Test(arguments: transports)
    func colonAloneKeepsValuesGivenElsewhere(transport: String) async throws {
        let received = try await send(["-H", "X-Tag: one", "-H", "X-Tag:"], transport: transport)
        #expect(received.values(for: "X-Tag") == ["one"])
    }

    @Test(arguments: transports)
    func anyHeaderOfANameReplacesTheDefault(transport: String) async throws {
        let received = try await send(["--json", "{}", "-H", "accept: text/plain", "-H", "Accept: application/xml"], transport: transport)
        #expect(received.values(for: "Accept") == ["text/plain, application/xml"])
    }
}
