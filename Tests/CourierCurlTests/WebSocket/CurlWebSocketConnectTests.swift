#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import CourierWebSocketTestSupport
import Foundation
import Testing
@testable import CourierCurl

/// Opening the connection: libcurl connects in a multi handle of its own that the event loop
/// drives, with no thread, beside the loop's transfers; cancellation, failure, the connect
/// timeout and the loop's shutdown each end it with its own error and close what was opened.
@Suite(.timeLimit(.minutes(5))) struct CurlWebSocketConnectTests {
    /// A connect that waits on a server that never answers TLS is the loop's to drive (its
    /// statistics count it), no thread is made for it, and the loop's transfers and other
    /// connects go on meanwhile.
    @Test func aConnectIsDrivenByTheLoopBesideItsTransfers() async throws {
        var oneLoop = CurlTransport.Configuration()
        oneLoop.eventLoopCount = 1
        let configuration = oneLoop
        let listener = try SilentListener()
        let echo = try await TestWebSocketServer.start(.echo)
        try await withCurlTransport(configuration) { server, transport in
            let loop = try #require(transport.executor as? CurlEventLoop)
            let pending = Task { try await CurlWebSocketConnection.connect(to: listener.url(), configuration: configuration, loop: loop) }
            #expect(await pollUntil { loop.statistics.connecting == 1 && listener.poll().accepted == 1 })
            // The thread the connect once ran on was named "CourierCurl WebSocket connect".
            #expect(!threadNames().contains { $0.hasPrefix("CourierCurl Web") }, "\(threadNames())")

            let startedBefore = loop.statistics.started
            async let requests = (0..<20).asyncMap { index in
                try await transport.echo(request(server.url("/get?i=\(index)"))).query
            }
            let echoURL = try #require(URL(string: echo.url()))
            async let messages = (0..<8).asyncMap { index in
                let connection = try await CurlWebSocketConnection.connect(to: echoURL, configuration: configuration, loop: loop, closeTimeout: patientClose)
                try await connection.send(.text("beside \(index)"))
                let event = try await connection.receive()
                _ = try await connection.close()
                return event
            }
            #expect(try await requests == (0..<20).map { "i=\($0)" })
            #expect(try await messages == (0..<8).map { .message(.text("beside \($0)")) })
            #expect(loop.statistics.started >= startedBefore + 20)
            #expect(loop.statistics.connecting == 1)

            pending.cancel()
            await #expect(throws: URLError.self) { try await pending.value }
        }
        try await echo.shutdown()
    }

    /// The task is cancelled while TLS waits for the server's hello: it ends with
    /// `URLError(.cancelled)`, and the socket is closed (the server reads its end).
    @Test func cancellingAConnectClosesItsSocket() async throws {
        let listener = try SilentListener()
        try await withLoop { loop, configuration in
            let pending = Task { try await CurlWebSocketConnection.connect(to: listener.url(), configuration: configuration, loop: loop) }
            #expect(await pollUntil { loop.statistics.connecting == 1 && listener.poll().accepted == 1 })
            pending.cancel()
            let error = await #expect(throws: URLError.self) { try await pending.value }
            #expect(error?.code == .cancelled)
            #expect(loop.statistics.connecting == 0)
            #expect(await pollUntil { listener.poll() == SilentListener.Counts(accepted: 1, closedByClient: 1) })
        }
    }

    /// A task cancelled before it connects never reaches the loop.
    @Test func aConnectCancelledBeforeItStartsIsRefused() async throws {
        let listener = try SilentListener()
        try await withLoop { loop, configuration in
            let pending = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await CurlWebSocketConnection.connect(to: listener.url(), configuration: configuration, loop: loop)
            }
            let error = await #expect(throws: URLError.self) { try await pending.value }
            #expect(error?.code == .cancelled)
            #expect(listener.poll().accepted == 0)
        }
    }

    /// A refused connection fails with libcurl's code for it, which the engine reports as
    /// `.cannotConnectToHost`, in libcurl's detailed words (they name the port).
    @Test func aRefusedConnectionFailsAsCannotConnectToHost() async throws {
        let port = try refusingPort()
        try await withLoop { loop, configuration in
            let url = try #require(URL(string: "ws://127.0.0.1:\(port)/socket"))
            let error = await #expect(throws: CurlError.self) {
                try await CurlWebSocketConnection.connect(to: url, configuration: configuration, loop: loop)
            }
            #expect(error?.curlCode == Curl.Code.couldntConnect)
            #expect(error.map { CurlError.urlErrorCode(curlCode: $0.curlCode, osErrno: 0) } == .cannotConnectToHost)
            #expect(error?.message.contains("\(port)") == true, "\(String(describing: error))")
            #expect(loop.statistics.connecting == 0)
        }
    }

    /// libcurl's connect timeout runs on the loop's timer: a server that never answers TLS ends
    /// the connect with it, and the socket is closed.
    @Test func aConnectPastItsTimeoutFails() async throws {
        let listener = try SilentListener()
        try await withLoop { loop, configuration in
            let error = await #expect(throws: CurlError.self) {
                try await CurlWebSocketConnection.connect(
                    to: listener.url(), configuration: configuration, loop: loop, connectTimeout: .milliseconds(200))
            }
            #expect(error?.curlCode == Curl.Code.operationTimedOut)
            #expect(await pollUntil { listener.poll() == SilentListener.Counts(accepted: 1, closedByClient: 1) })
        }
    }

    /// The loop shuts down while a connect waits: the connect fails as every call on a loop
    /// that is gone does, and the socket is closed.
    @Test func aLoopShutDownWhileConnectingFailsTheConnect() async throws {
        let listener = try SilentListener()
        let configuration = CurlTransport.Configuration()
        let loop = try CurlEventLoop(configuration: configuration)
        let pending = Task { try await CurlWebSocketConnection.connect(to: listener.url(), configuration: configuration, loop: loop) }
        #expect(await pollUntil { loop.statistics.connecting == 1 && listener.poll().accepted == 1 })
        loop.shutDown()
        await #expect(throws: CurlWebSocketConnectionError.eventLoopUnavailable) { try await pending.value }
        await loop.awaitTermination()
        #expect(await pollUntil { listener.poll() == SilentListener.Counts(accepted: 1, closedByClient: 1) })
        await #expect(throws: CurlWebSocketConnectionError.eventLoopUnavailable) {
            try await CurlWebSocketConnection.connect(to: listener.url(), configuration: configuration, loop: loop)
        }
    }

    /// Many connects at once on one loop, each in its own multi handle: every one opens, talks
    /// and closes, and none is left behind.
    @Test func sixtyFourConnectsAtOnce() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let url = try #require(URL(string: server.url()))
        try await withLoop { loop, configuration in
            let answers = try await withThrowingTaskGroup(of: CurlWebSocketConnection.Event.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        let connection = try await CurlWebSocketConnection.connect(to: url, configuration: configuration, loop: loop, closeTimeout: patientClose)
                        try await connection.send(.text("connection \(index)"))
                        let event = try await connection.receive()
                        _ = try await connection.close()
                        return event
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(answers.map { "\($0)" }) == Set((0..<64).map { "\(CurlWebSocketConnection.Event.message(.text("connection \($0)")))" }))
            #expect(loop.statistics.connecting == 0)
        }
        try await server.shutdown()
    }

    /// A name to resolve first: libcurl's resolver, and each address it tries, report their
    /// sockets and timers to the connection's own multi handle, which the loop drives.
    @Test func connectsToANameThatNeedsResolving() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let url = try #require(URL(string: "ws://localhost:\(server.port)/"))
        try await withLoop { loop, configuration in
            let connection = try await CurlWebSocketConnection.connect(to: url, configuration: configuration, loop: loop, closeTimeout: patientClose)
            try await connection.send(.text("by name"))
            #expect(try await connection.receive() == .message(.text("by name")))
            _ = try await connection.close()
        }
        try await server.shutdown()
    }

    // MARK: Helpers

    /// Runs `body` on a loop of its own, shut down afterwards whatever happens.
    private func withLoop(_ body: (CurlEventLoop, CurlTransport.Configuration) async throws -> Void) async throws {
        let configuration = CurlTransport.Configuration()
        let loop = try CurlEventLoop(configuration: configuration)
        do {
            try await body(loop, configuration)
        } catch {
            loop.shutDown()
            await loop.awaitTermination()
            throw error
        }
        loop.shutDown()
        await loop.awaitTermination()
    }
}

extension Range where Bound == Int {
    /// `transform` of every element, run at once in child tasks, in the range's order.
    fileprivate func asyncMap<T: Sendable>(_ transform: @escaping @Sendable (Int) async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for index in self { group.addTask { (index, try await transform(index)) } }
            var results: [(Int, T)] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
#endif
