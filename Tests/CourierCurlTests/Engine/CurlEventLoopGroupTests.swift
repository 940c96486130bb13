#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
@testable import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCurl

/// A transport on several event loops, against the test server: requests are spread, the
/// per-host limit holds for all loops together, and cancelling and shutting down reach every loop.
@Suite("CurlTransport on several event loops")
struct CurlEventLoopGroupTests {
    private func configuration(loops: Int, connectionsPerHost: Int) -> CurlTransport.Configuration {
        var configuration = CurlTransport.Configuration()
        configuration.eventLoopCount = loops
        configuration.maximumConnectionsPerHost = connectionsPerHost
        return configuration
    }

    /// Every request is answered with its own body, more than one loop ran them, and the
    /// server saw no more connections than the host allows: each loop reused its own.
    @Test(arguments: [2, 3])
    func manyRequestsToOneHostAreAnsweredAndSpreadOverTheLoops(loops: Int) async throws {
        try await withCurlTransport(configuration(loops: loops, connectionsPerHost: 6)) { server, transport in
            try await withThrowingTaskGroup(of: (Int, Data).self) { group in
                for index in 0..<300 {
                    group.addTask { (index, try await transport.http(request(server.url("/bytes/\(index)?seed=\(index)"))).0) }
                }
                var answered = 0
                for try await (index, data) in group {
                    #expect(data.count == index)
                    answered += 1
                }
                #expect(answered == 300)
            }
            let started = transport.statisticsPerLoop.map(\.started)
            #expect(started.count == loops)
            #expect(started.reduce(0, +) == 300)
            #expect(started.allSatisfy { $0 > 0 }, "requests per loop: \(started)")
            #expect(server.acceptedConnectionCount <= 6)
            #expect(transport.statistics.waiting == 0)
            #expect(transport.hostsInFlightOnSeveralLoops == 0)
        }
    }

    /// Requests one after another stay on one loop and reuse its connection.
    @Test func requestsOneAfterAnotherReuseOneConnection() async throws {
        try await withCurlTransport(configuration(loops: 3, connectionsPerHost: 6)) { server, transport in
            for index in 0..<20 {
                let (data, _) = try await transport.http(request(server.url("/bytes/\(index)")))
                #expect(data.count == index)
            }
            #expect(server.acceptedConnectionCount == 1)
            #expect(transport.statisticsPerLoop.map(\.started).sorted() == [0, 0, 20])
            #expect(transport.hostsInFlightOnSeveralLoops == 0)
        }
    }

    /// The requests never end, so once all of them are either running or waiting, what runs
    /// is what the limit lets run: with a limit per loop instead of one for the group, 3 loops
    /// would run up to 12.
    @Test(arguments: [(3, 4), (2, 5), (4, 6)])
    func thePerHostLimitHoldsAcrossTheLoops(loops: Int, connectionsPerHost: Int) async throws {
        try await withCurlTransport(configuration(loops: loops, connectionsPerHost: connectionsPerHost)) { server, transport in
            let tasks = (0..<40).map { index in Task { try await transport.data(for: request(server.url("/never?i=\(index)"))) } }
            let allAdmitted = await pollUntil {
                let statistics = transport.statistics
                return statistics.running + statistics.waiting == 40
            }
            #expect(allAdmitted, "\(transport.statistics)")
            #expect(transport.statistics.running == connectionsPerHost)
            let runningPerLoop = transport.statisticsPerLoop.map(\.running)
            #expect(runningPerLoop.count { $0 > 0 } == min(loops, connectionsPerHost), "running per loop: \(runningPerLoop)")
            #expect(await pollUntil { server.acceptedConnectionCount == connectionsPerHost })
            for task in tasks { task.cancel() }
            for task in tasks {
                #expect(await urlErrorCode { _ = try await task.value } == .cancelled)
            }
        }
    }

    /// Requests running and waiting on every loop are cancelled, and every loop gives its
    /// handles back.
    @Test func cancellingRequestsOnSeveralLoopsEndsEachAndReturnsEveryHandle() async throws {
        try await withCurlTransport(configuration(loops: 3, connectionsPerHost: 6)) { server, transport in
            let tasks = (0..<90).map { index in Task { try await transport.data(for: request(server.url("/never?i=\(index)"))) } }
            #expect(await pollUntil { transport.statisticsPerLoop.allSatisfy { $0.running == 2 && $0.waiting > 0 } })
            for task in tasks { task.cancel() }
            for task in tasks {
                #expect(await urlErrorCode { _ = try await task.value } == .cancelled)
            }
            let returned = await pollUntil {
                transport.statisticsPerLoop.allSatisfy { $0.running == 0 && $0.waiting == 0 && $0.idleHandles == $0.liveHandles }
            }
            #expect(returned, "\(transport.statisticsPerLoop)")
            #expect(transport.hostsInFlightOnSeveralLoops == 0)
            let (_, response) = try await transport.http(request(server.url("/get")))
            #expect(response.statusCode == 200)
        }
    }

    /// Shutting down fails what runs and waits on every loop with the typed error, refuses
    /// what comes after, and stops every loop.
    @Test(.timeLimit(.minutes(5))) func shutdownEndsRequestsInFlightOnEveryLoop() async throws {
        try await withCurlTransport(configuration(loops: 3, connectionsPerHost: 3)) { server, transport in
            let tasks = (0..<30).map { index in Task { try await transport.data(for: request(server.url("/never?i=\(index)"))) } }
            #expect(await pollUntil { transport.statisticsPerLoop.allSatisfy { $0.running == 1 && $0.waiting > 0 } })
            await transport.shutdown()
            for task in tasks {
                await #expect(throws: CurlError.transportShutDown) { _ = try await task.value }
            }
            await #expect(throws: CurlError.transportShutDown) { _ = try await transport.data(for: request(server.url("/get"))) }
            #expect(transport.statisticsPerLoop.allSatisfy { $0.isTerminated })
            #expect(transport.statistics.isTerminated)
        }
    }

    /// A streamed body's reader resumes its transfer on the loop the transfer runs on: the
    /// bodies are left unread until a transfer on each loop has paused, then read whole.
    @Test func streamedBodiesOnSeveralLoopsPauseAndResumeOnTheirOwnLoop() async throws {
        var configuration = configuration(loops: 2, connectionsPerHost: 4)
        configuration.streamBufferSize = 64 << 10
        try await withCurlTransport(configuration) { server, transport in
            let size = 4 << 20
            var bodies: [(Int, ResponseBody)] = []
            for index in 0..<4 {
                bodies.append((index, try await transport.stream(for: request(server.url("/bytes/\(size)?seed=\(index)"))).0))
            }
            #expect(await pollUntil { transport.statisticsPerLoop.allSatisfy { $0.pausedByBackPressure > 0 } })
            #expect(transport.statisticsPerLoop.map(\.started) == [2, 2])
            for (index, body) in bodies {
                var received = Data()
                for try await chunk in body { received.append(chunk) }
                #expect(received == DeterministicBytes.data(count: size, seed: UInt64(index)))
            }
            #expect(await pollUntil { transport.statistics.running == 0 })
            #expect(transport.hostsInFlightOnSeveralLoops == 0)
        }
    }

    /// The kernel's list of the cores a process may run on, as `/proc/self/status` gives it.
    @Test(arguments: [("0-1", 2), ("0", 1), ("0,2-5", 5), (" 0-3,8,10-11\t", 7), ("", 0), ("3-1", nil), ("a", nil), ("0-", nil)] as [(String, Int?)])
    func anAllowedCoreListIsCounted(list: String, cores: Int?) {
        #expect(CurlTransport.Configuration.coreCount(inAllowedList: Substring(list)) == cores)
    }

    /// By default, half the cores this process may use, at least one; a transport made with
    /// the default runs that many loops. (`taskset -c 0` makes it 1 on any machine.)
    @Test func theDefaultLoopCountIsHalfTheCoresThisProcessMayUse() async throws {
        let cores = CurlTransport.Configuration.availableCores()
        #expect(cores >= 1 && cores <= ProcessInfo.processInfo.activeProcessorCount)
        #expect(CurlTransport.Configuration().eventLoopCount == max(1, cores / 2))
        let transport = try CurlTransport()
        #expect(transport.statisticsPerLoop.count == max(1, cores / 2))
        await transport.shutdown()
    }

    @Test(arguments: [0, -1, CurlEventLoopGroup.maximumCount + 1])
    func aLoopCountOutOfRangeIsRefusedNamingTheSetting(count: Int) {
        var configuration = CurlTransport.Configuration()
        configuration.eventLoopCount = count
        #expect {
            _ = try CurlTransport(configuration: configuration)
        } throws: { error in
            guard let error = error as? CurlError else { return false }
            return error.kind == .option && error.message.contains("eventLoopCount is \(count)")
                && error.message.contains("from 1 to \(CurlEventLoopGroup.maximumCount)")
        }
    }
}

/// An origin's HTTP/2 requests keep one connection, whatever the number of loops.
@Suite("CurlTransport on several event loops over HTTP/2", .serialized)
struct CurlEventLoopGroupHTTP2Tests {
    @Test(arguments: [2, 3])
    func requestsToOneOriginShareOneConnectionOnOneLoop(loops: Int) async throws {
        let server = try await TestServer.start()
        do {
            try await withHTTP2Proxy(upstreamPort: server.port) { proxy, files in
                var configuration = CurlTransport.Configuration()
                configuration.caBundlePath = files.caBundlePath
                configuration.eventLoopCount = loops
                let transport = try CurlTransport(configuration: configuration)
                do {
                    let heads = try await withThrowingTaskGroup(of: ResponseHead.self) { group in
                        for index in 0..<64 {
                            group.addTask { try await transport.exchange(request(proxy.tlsURL("/delay/0.2?i=\(index)"))).1 }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(heads.count == 64)
                    #expect(heads.allSatisfy { $0.statusCode == 200 && $0.httpVersion == .http2 })
                    #expect(heads.count { $0.metrics.connectionReused == false } == 1)
                    let connections = Set(await proxy.accessLog(atLeast: 64).compactMap { $0.split(separator: " ").first })
                    #expect(connections.count == 1, "nginx saw connections \(connections)")
                    let started = transport.statisticsPerLoop.map(\.started)
                    #expect(started.sorted() == Array(repeating: 0, count: loops - 1) + [64], "requests per loop: \(started)")
                    await transport.shutdown()
                } catch {
                    await transport.shutdown()
                    throw error
                }
            }
            try await server.shutdown()
        } catch {
            try? await server.shutdown()
            throw error
        }
    }
}
