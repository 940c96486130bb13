#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation
import Testing

/// `URLSessionTransport.shutdown()`, whatever `COURIER_TRANSPORT` says: requests in flight and
/// after it end with one typed error, none traps, and it returns.
@Suite(.timeLimit(.minutes(5))) struct URLSessionTransportShutdownTests {
    private static func isShutDownError(_ error: any Error) -> Bool {
        guard let error = error as? URLError else { return false }
        return error.code == .cancelled && error.localizedDescription.contains("URLSessionTransport was shut down")
    }

    @Test func requestsInFlightAndAfterwardsEndWithTheShutdownError() async throws {
        let server = try await TestServer.start()
        let transport = URLSessionTransport()
        // Neither ends by itself: `/never` never answers and the drip lasts 2,000 s, so only
        // the shutdown can end them, however long the two take to reach the server.
        let inFlight = Task { try await transport.data(for: URLRequest(url: server.url("/never"))) }
        let streamed = Task {
            let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/drip/100000?interval_ms=20")))
            for try await _ in body {}
        }
        #expect(await eventually { server.requestCount == 2 }, "\(server.requestCount) of the 2 requests arrived")
        await transport.shutdown()

        let inFlightResult = await inFlight.result
        #expect(throws: (any Error).self) { try inFlightResult.get() }
        if case .failure(let error) = inFlightResult { #expect(Self.isShutDownError(error), "\(error)") }
        let streamedResult = await streamed.result
        #expect((streamedResult.failure as? URLError)?.code == .cancelled, "\(streamedResult)")
        do {
            _ = try await transport.data(for: URLRequest(url: server.url("/get")))
            Issue.record("a request after shutdown was sent")
        } catch {
            #expect(Self.isShutDownError(error), "\(error)")
        }
        #expect(server.requestCount == 2)
        await transport.shutdown()
        try await server.shutdown()
    }

    /// FoundationNetworking traps when a task is created on an invalidated session; requests
    /// queued behind the shutdown are refused instead. The server never answers, so every
    /// request ends by the shutdown however late it comes on a loaded machine.
    @Test func requestsRacingTheShutdownEndTypedAndNothingTraps() async throws {
        let server = try await TestServer.start()
        let transport = URLSessionTransport()
        let results = await withTaskGroup(of: Result<Void, any Error>.self) { group in
            for index in 0..<200 {
                group.addTask {
                    await Result {
                        if index.isMultiple(of: 2) {
                            _ = try await transport.data(for: URLRequest(url: server.url("/never")))
                        } else {
                            let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/never")))
                            _ = try await body.collect(upTo: 1000)
                        }
                    }
                }
            }
            group.addTask {
                await transport.shutdown()
                return .success(())
            }
            var results: [Result<Void, any Error>] = []
            for await result in group { results.append(result) }
            return results
        }
        let failures = results.compactMap(\.failure)
        #expect(failures.count == 200)
        #expect(failures.allSatisfy { ($0 as? URLError)?.code == .cancelled }, "\(failures.filter { ($0 as? URLError)?.code != .cancelled })")
        try await server.shutdown()
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
