import CourierParity
import Foundation
import Testing

/// The runner's judgement, on hand-made runs, and its view of what the server received.
@Suite struct ParityRunnerTests {
    private let agreeing = ParityRun(
        urlSession: .failure(.urlError(.timedOut)), curl: .failure(.urlError(.timedOut)),
        receivedFromURLSession: nil, receivedFromCurl: nil
    )

    @Test func anUnrecordedDifferenceIsAProblem() {
        var run = agreeing
        run.curl = .failure(.urlError(.cancelled))
        let problems = ParityRunner.problems(in: run, for: ParityCase("example", .get("/get")))
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("differs: failure") == true)
    }

    @Test func aRecordedDifferenceThatStopsOccurringIsAProblem() {
        let parityCase = ParityCase("example", .get("/get"), known: [KnownDifference(.failure, "was different")])
        let problems = ParityRunner.problems(in: agreeing, for: parityCase)
        #expect(problems == ["recorded difference no longer occurs, remove it: failure (was different)"])
    }

    @Test func aRecordedDifferenceThatOccursIsNoProblem() {
        var run = agreeing
        run.curl = .failure(.urlError(.unknown))
        let parityCase = ParityCase("example", .get("/get"), known: [KnownDifference(.failure, "differs")])
        #expect(ParityRunner.problems(in: run, for: parityCase).isEmpty)
    }

    @Test func theServersRecordOfEachTransportsRequestIsCompared() async throws {
        let servers = try await ParityServers.start()
        let curl = try ParityTransports.curl.get()
        let run = try await ParityRunner.run(ParityCase("GET", .get("/get")), on: servers, sharedCurl: curl)
        try await servers.shutdown()
        let fromURLSession = try #require(run.receivedFromURLSession)
        let fromCurl = try #require(run.receivedFromCurl)
        // The headers URLSession on Linux adds, which CurlTransport must add too.
        for name in ["user-agent", "accept", "accept-encoding", "accept-language", "host"] {
            #expect(!fromURLSession.headers[name].isEmpty, "URLSession sent no \(name)")
            #expect(fromURLSession.headers[name] == fromCurl.headers[name], "\(name)")
        }
        #expect(fromURLSession.headers["expect"].isEmpty && fromCurl.headers["expect"].isEmpty)
    }
}
