#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCurl

@Suite("CurlTransport.executor: tasks that run on the curl thread")
struct CurlTransportExecutorTests {
    @Test func aPreferringTaskRunsOnTheCurlThreadBetweenRequests() async throws {
        try await withCurlTransport { server, transport in
            let onCurlThread = try await withTaskExecutorPreference(transport.executor) {
                var answers: [Bool] = []
                for index in 0..<20 {
                    let (data, response) = try await transport.http(request(server.url("/bytes/\(index)")))
                    #expect(response.statusCode == 200)
                    #expect(data.count == index)
                    answers.append(isRunning(on: transport))
                }
                return answers
            }
            #expect(onCurlThread == Array(repeating: true, count: 20))
            // And a task without the preference resumes elsewhere.
            _ = try await transport.http(request(server.url("/get")))
            #expect(!isRunning(on: transport))
        }
    }

    @Test func childTasksOnTheExecutorRunConcurrently() async throws {
        try await withCurlTransport { server, transport in
            // /delay holds each response for 0.5 s. Run one after another, the requests would
            // share one connection; in flight together, they open the per-host limit's worth.
            // Counted by the server, so a loaded machine cannot make this flaky.
            let statuses = try await withTaskExecutorPreference(transport.executor) {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<12 {
                        group.addTask { try await transport.http(request(server.url("/delay/0.5"))).1.statusCode }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(statuses == Array(repeating: 200, count: 12))
            #expect(server.acceptedConnectionCount == transport.configuration.maximumConnectionsPerHost)
        }
    }

    @Test func tasksPreferringAShutDownTransportStillRun() async throws {
        let server = try await TestServer.start()
        let transport = try CurlTransport()
        let executor = transport.executor
        await transport.shutdown()
        let outcome = try await awaitWithin(seconds: 20) {
            await withTaskExecutorPreference(executor) { () async -> String in
                do {
                    _ = try await transport.data(for: request(server.url("/get")))
                    return "answered"
                } catch let error as CurlError {
                    return "\(error.kind)"
                } catch {
                    return "\(error)"
                }
            }
        }
        #expect(outcome == "\(CurlError.transportShutDown.kind)")
        try await server.shutdown()
    }
}

/// Synchronous, because `Thread.current` is not available in async code.
private func isRunning(on transport: CurlTransport) -> Bool {
    transport.isOnTransportThread
}
