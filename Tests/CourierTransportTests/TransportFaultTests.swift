#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// Servers that misbehave: silent, stalled, endless, explosive, or with huge header blocks.
/// Every test bounds its own running time, so a transport that hangs fails instead of stalling
/// the suite.
@Suite(.testServer) struct TransportFaultTests {
    @Test(arguments: TransportKind.configured)
    func aServerThatNeverAnswersTimesOut(_ transport: TransportKind) async throws {
        let started = ContinuousClock.now
        await transport.expectURLError(.timedOut, "GET", "/never", on: try sharedServer(), timeout: 1)
        // Bounded, with room for a loaded machine; CurlErrorMappingTests holds the tight bound.
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test(arguments: TransportKind.configured)
    func aServerThatStallsMidBodyTimesOut(_ transport: TransportKind) async throws {
        let started = ContinuousClock.now
        await transport.expectURLError(.timedOut, "GET", "/stall/50000", on: try sharedServer(), timeout: 1)
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test(arguments: TransportKind.configured)
    func twoThousandResponseHeadersArriveWhole(_ transport: TransportKind) async throws {
        let (_, response) = try await transport.send("GET", "/many-headers/2000", on: try sharedServer())
        #expect(response.statusCode == 200)
        let fields = response.allHeaderFields.filter { ($0.key as? String)?.hasPrefix("X-Header-") == true }
        #expect(fields.count == 2000)
        #expect(response.value(forHTTPHeaderField: "X-Header-1999") == "value-1999")
    }

    @Test(arguments: TransportKind.configured)
    func aContentLengthLargerThanTheBodyFailsWithoutWaiting(_ transport: TransportKind) async throws {
        // The server closes after half the announced bytes: the transport must notice the close
        // at once rather than wait for its timeout, and must not deliver the half body.
        let started = ContinuousClock.now
        await transport.expectURLError(.networkConnectionLost, "GET", "/truncate/200000", on: try sharedServer(), timeout: 30)
        // Far below the 30 s timeout: the close was noticed, not waited out.
        #expect(ContinuousClock.now - started < .seconds(20))
    }
}

/// The `URLError` code `networking` throws for `request`, or nil when it answers.
func urlErrorCode(of networking: Networking, _ request: URLRequest) async throws -> URLError.Code? {
    do {
        _ = try await networking(request)
        return nil
    } catch let error as URLError {
        return error.code
    }
}

extension Result where Failure == any Error {
    /// `body`'s value or error, for tests whose expected outcome depends on the transport.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
