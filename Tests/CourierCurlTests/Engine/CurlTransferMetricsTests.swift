#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
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

    private static func features(_ versionNumber: Int) -> CurlFeatures {
        CurlFeatures(versionNumber: versionNumber, zlib: true, brotli: true, zstd: true, http2: true)
    }

    /// A POST of 10,000 bytes with a 200-byte head, as each libcurl reports it: 7.x counts the
    /// head in `CURLINFO_REQUEST_SIZE`, 8.7 on head and body. The request was 10,200 bytes on
    /// every version.
    @Test(arguments: [(0x07_4C_00, 200), (0x07_58_01, 200), (0x08_06_00, 200), (0x08_07_00, 10_200), (0x08_0E_01, 10_200)])
    func theRequestIsCountedOnceOnEveryLibcurl(versionNumber: Int, requestSize: Int) {
        var info = Curl.TransferInfo()
        info.requestSize = requestSize
        info.uploaded = 10_000
        let metrics = ExchangeMetrics(info, decodedBodyBytes: nil, features: Self.features(versionNumber))
        #expect(metrics.requestBytes == 10_200)
    }

    /// No name is looked up for a reused connection: 8.x reports 0, 7.x a time, and both mean none.
    @Test(arguments: [0x07_58_01, 0x08_0E_01])
    func aReusedConnectionLookedNoNameUp(versionNumber: Int) {
        var info = Curl.TransferInfo()
        info.newConnections = 0
        info.nameLookup = versionNumber < 0x08_00_00 ? 12 : 0
        info.preTransfer = 40
        let reused = ExchangeMetrics(info, decodedBodyBytes: nil, features: Self.features(versionNumber))
        #expect(reused.connectionReused == true)
        #expect(reused.nameLookup == nil)
        info.newConnections = 1
        info.nameLookup = 12
        let opened = ExchangeMetrics(info, decodedBodyBytes: nil, features: Self.features(versionNumber))
        #expect(opened.connectionReused == false)
        #expect(opened.nameLookup == .microseconds(12))
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
