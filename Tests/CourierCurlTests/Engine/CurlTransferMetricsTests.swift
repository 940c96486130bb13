#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import CourierCurl

/// How a transfer's metrics are read from libcurl's, whichever way it ended.
@Suite struct CurlTransferMetricsTests {
    private func transfer() throws -> CurlTransfer {
        let url = try #require(URL(string: "http://127.0.0.1/x"))
        let configuration = CurlTransport.Configuration()
        let plan = CurlRequestPlan(request: URLRequest(url: url), url: url, configuration: configuration)
        let transfer = CurlTransfer(
            id: TransferID(rawValue: 1), plan: plan, headerList: try CurlHeaderList(lines: []),
            configuration: configuration, bodyPool: CurlBodyBufferPool(maximumIdleBytes: 0)
        )
        transfer.startIdleClock()
        return transfer
    }

    /// libcurl's total as of its last progress tick, long before the transfer was stopped.
    private var staleInfo: Curl.TransferInfo {
        var info = Curl.TransferInfo()
        info.connect = 100
        info.total = 200
        return info
    }

    @Test func aTransferLibcurlFinishedKeepsLibcurlsTotal() throws {
        let transfer = try transfer()
        transfer.recordMetrics(staleInfo, finished: true)
        #expect(transfer.metrics?.total == .microseconds(200))
        #expect(transfer.metrics?.connect == .microseconds(100))
    }

    @Test func aTransferStoppedBeforeItsEndRunsUntilItWasStopped() async throws {
        let transfer = try transfer()
        try await Task.sleep(for: .milliseconds(50))
        transfer.recordMetrics(staleInfo, finished: false)
        let total = try #require(transfer.metrics?.total)
        #expect(total >= .milliseconds(50))
        #expect(transfer.metrics?.connect == .microseconds(100))
    }
}
