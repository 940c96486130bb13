#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// Servers that misbehave: silent, stalled, endless, explosive, or with huge header blocks.
/// Each asserts the outcome that tells the transport's own handling from waiting for the
/// server, which holds on for longer than any test runs; the time limit catches a transport
/// that hangs instead of stalling the suite.
@Suite(.testServer, .timeLimit(.minutes(5))) struct TransportFaultTests {
    /// `/never` holds the connection for ever: a transport that waited for the server instead
    /// of its own timeout would reach the time limit, not `.timedOut`.
    @Test(arguments: TransportKind.configured)
    func aServerThatNeverAnswersTimesOut(_ transport: TransportKind) async throws {
        await transport.expectURLError(.timedOut, "GET", "/never", on: try sharedServer(), timeout: 1)
    }

    /// A stalled body never resumes: only the idle timeout can end the transfer.
    @Test(arguments: TransportKind.configured)
    func aServerThatStallsMidBodyTimesOut(_ transport: TransportKind) async throws {
        await transport.expectURLError(.timedOut, "GET", "/stall/50000", on: try sharedServer(), timeout: 1)
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
        // rather than wait for its timeout, and must not deliver the half body. The timeout is
        // longer than the time limit, so a transport that waited it out fails on that, and one
        // that noticed nothing would end `.timedOut`, never `.networkConnectionLost`.
        await transport.expectURLError(
            .networkConnectionLost, "GET", "/truncate/200000", on: try sharedServer(), timeout: TestRun.serverHoldSeconds
        )
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
