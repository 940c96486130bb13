import CourierTestServer
import Testing

/// Starts one `TestServer` around a suite and stops it when the suite ends.
///
/// Tests read it from ``current``; tests that count connections or inspect the last request
/// start a server of their own, since the suite's tests run in parallel on the shared one.
struct TestServerTrait: SuiteTrait, TestScoping {
    @TaskLocal static var current: TestServer?

    var isRecursive: Bool { false }

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try await TestServer.start()
        do {
            try await Self.$current.withValue(server) { try await function() }
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }
}

extension Trait where Self == TestServerTrait {
    /// Runs the suite against its own in-process test server on 127.0.0.1.
    static var testServer: Self { TestServerTrait() }
}

/// The suite's server; fails the test if the suite lacks the `.testServer` trait.
func sharedServer(sourceLocation: SourceLocation = #_sourceLocation) throws -> TestServer {
    try #require(TestServerTrait.current, "suite needs the .testServer trait", sourceLocation: sourceLocation)
}
