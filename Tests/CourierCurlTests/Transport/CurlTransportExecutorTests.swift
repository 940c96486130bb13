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

    @Test(.timeLimit(.minutes(5))) func childTasksOnTheExecutorRunConcurrently() async throws {
        try await withCurlTransport { server, transport in
            // The server never answers, so requests run one after another would never get past
            // the first: only child tasks that run together fill the per-host limit's worth of
            // connections and queue the rest, a state the poll waits for however slow the machine.
            let limit = transport.configuration.maximumConnectionsPerHost
            let requests = Task {
                try await withTaskExecutorPreference(transport.executor) {
                    try await withThrowingTaskGroup(of: URLError.Code?.self) { group in
                        for _ in 0..<12 {
                            group.addTask { await urlErrorCode { _ = try await transport.http(request(server.url("/never"))) } }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                }
            }
            let together = await pollUntil {
                let statistics = transport.statistics
                return statistics.running == limit && statistics.waiting == 12 - limit && server.acceptedConnectionCount == limit
            }
            #expect(together, "\(transport.statistics)")
            requests.cancel()
            let codes = try await requests.value
            #expect(codes == Array(repeating: .cancelled, count: 12))
            #expect(server.acceptedConnectionCount == limit)
        }
    }

    @Test func tasksPreferringAShutDownTransportStillRun() async throws {
        let server = try await TestServer.start()
        let transport = try CurlTransport()
        let executor = transport.executor
        await transport.shutdown()
        let outcome = try await awaitWithin {
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
