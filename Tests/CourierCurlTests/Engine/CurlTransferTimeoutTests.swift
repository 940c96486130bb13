#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import CourierCurl

/// The timeouts the event loop enforces itself, for transfers libcurl is not watching.
@Suite struct CurlTransferTimeoutTests {
    private func transfer(timeout: TimeInterval) throws -> CurlTransfer {
        let url = try #require(URL(string: "http://127.0.0.1/x"))
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        var configuration = CurlTransport.Configuration()
        configuration.maximumConnectionsPerHost = 3
        let plan = CurlRequestPlan(request: request, url: url, configuration: configuration)
        let transfer = CurlTransfer(
            id: TransferID(rawValue: 1), plan: plan, headerList: try CurlHeaderList(lines: []),
            configuration: configuration, bodyPool: CurlBodyBufferPool(maximumIdleBytes: 0)
        )
        transfer.startIdleClock()
        return transfer
    }

    @Test func aQueuedTransferIsOverdueOnceItsIdleTimeoutPasses() throws {
        let transfer = try transfer(timeout: 2)
        let started = ContinuousClock.now
        #expect(transfer.overdueError(at: started + .seconds(1)) == nil)
        let error = try #require(transfer.overdueError(at: started + .seconds(3)))
        #expect(error.curlCode == Curl.Code.operationTimedOut)
        #expect(error.message == "no data received or sent for 2 s, waiting for a connection (at most 3 per host)")
    }

    @Test func aTransferLibcurlHasStartedIsNotSaidToWaitForAConnection() throws {
        let transfer = try transfer(timeout: 2)
        _ = transfer.progress(downloaded: 0, uploaded: 0)
        let error = try #require(transfer.overdueError(at: ContinuousClock.now + .seconds(3)))
        #expect(error.message == "no data received or sent for 2 s")
    }
}
