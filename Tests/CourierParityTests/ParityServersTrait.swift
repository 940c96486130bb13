import Testing

/// Starts a fresh ``ParityServers`` around a suite and stops them when it ends, so the suite
/// that reads `lastRequest` and the suite that runs cases concurrently never share a server.
struct ParityServersTrait: SuiteTrait, TestScoping {
    @TaskLocal static var current: ParityServers?

    var isRecursive: Bool { false }

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let servers = try await ParityServers.start()
        do {
            try await Self.$current.withValue(servers) { try await function() }
        } catch {
            try? await servers.shutdown()
            throw error
        }
        try await servers.shutdown()
    }
}

extension Trait where Self == ParityServersTrait {
    /// Runs the suite against its own parity servers on 127.0.0.1.
    static var parityServers: Self { ParityServersTrait() }
}

/// The suite's servers; fails the test if the suite lacks the `.parityServers` trait.
func currentParityServers(sourceLocation: SourceLocation = #_sourceLocation) throws -> ParityServers {
    try #require(ParityServersTrait.current, "suite needs the .parityServers trait", sourceLocation: sourceLocation)
}
