#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import CourierCurl

/// What the awaiting task of a transfer that did not complete is told, from what libcurl
/// reported and why the transfer's callbacks stopped it, without libcurl.
@Suite struct CurlTransferFailureTests {
    private let limit = CurlError(kind: .responseTooLarge, curlCode: 0, message: "too large")
    private let producer = CurlError(kind: .transfer, curlCode: Curl.Code.abortedByCallback, message: "the stream failed")
    private let silence = CurlError(kind: .transfer, curlCode: Curl.Code.operationTimedOut, message: "no data")

    private func plan(proxy: String? = nil) throws -> CurlRequestPlan {
        let url = try #require(URL(string: "http://127.0.0.1/x"))
        var configuration = CurlTransport.Configuration()
        if let proxy { configuration.proxy = .url(proxy) }
        return CurlRequestPlan(request: URLRequest(url: url), url: url, configuration: configuration)
    }

    private func report(_ code: Int, said: String = "libcurl's words", connectStatus: Int = 0) -> CurlError.ProxyOutcome {
        CurlError.ProxyOutcome(code: code, libcurlSaid: said, connectStatus: connectStatus, proxyError: .other)
    }

    @Test func aLimitOutranksAFailedProducerWhichOutranksASilence() {
        var reason: CurlStopReason?
        reason.record(.idleTimeout(silence))
        reason.record(.exceededLimit(limit))
        reason.record(.bodyStreamFailed(producer))
        reason.record(.idleTimeout(silence))
        #expect(reason?.error == limit)
        #expect(reason?.urlErrorCode == .dataLengthExceedsMaximum)
        var second: CurlStopReason?
        second.record(.bodyStreamFailed(producer))
        second.record(.idleTimeout(silence))
        #expect(second?.error == producer)
        #expect(second?.urlErrorCode == .unknown)
    }

    @Test func theLaterOfTwoAlikeIsKept() {
        let headers = CurlError(kind: .headersTooLarge, curlCode: 0, message: "headers")
        var reason: CurlStopReason?
        reason.record(.exceededLimit(headers))
        reason.record(.exceededLimit(limit))
        #expect(reason?.error == limit)
    }

    @Test func aStoppedTransferIsToldWhyRatherThanWhatLibcurlSaid() throws {
        let error = CurlError.transferFailure(
            report(Curl.Code.writeError), osErrno: 0, stoppedFor: .idleTimeout(silence), plan: try plan(), duringBody: false
        )
        #expect(error.code == .timedOut)
        #expect(CurlError.underlying(of: error) == silence)
        #expect(error.userInfo[NSURLErrorFailingURLErrorKey] as? URL == URL(string: "http://127.0.0.1/x"))
    }

    @Test func otherwiseLibcurlsCodeAndWordsAreMapped() throws {
        let error = CurlError.transferFailure(report(Curl.Code.couldntConnect), osErrno: 0, stoppedFor: nil, plan: try plan(), duringBody: false)
        #expect(error.code == .cannotConnectToHost)
        #expect(CurlError.underlying(of: error) == CurlError(kind: .transfer, curlCode: Curl.Code.couldntConnect, message: "libcurl's words"))
    }

    /// libcurl's low-speed backstop and the engine's idle clock enforce one limit: whichever
    /// fires first, the words are the same.
    @Test func libcurlsLowSpeedTimeoutReadsAsTheIdleClocks() throws {
        let said = "Operation too slow. Less than 1 bytes/sec transferred the last 60 seconds"
        let error = CurlError.transferFailure(
            report(Curl.Code.operationTimedOut, said: said), osErrno: 0, stoppedFor: nil, plan: try plan(), duringBody: false
        )
        #expect(error.code == .timedOut)
        #expect(CurlError.underlying(of: error)?.message == "no data received or sent for 60 s")
        let connect = CurlError.transferFailure(
            report(Curl.Code.operationTimedOut, said: "Connection timed out after 1001 milliseconds"), osErrno: 0, stoppedFor: nil,
            plan: try plan(), duringBody: false
        )
        #expect(CurlError.underlying(of: connect)?.message == "Connection timed out after 1001 milliseconds")
    }

    @Test func aFailureDuringAStreamedBodySaysSo() throws {
        let error = CurlError.transferFailure(report(Curl.Code.outOfMemory), osErrno: 0, stoppedFor: nil, plan: try plan(), duringBody: true)
        #expect(CurlError.underlying(of: error)?.message.hasPrefix("one read decoded to more than libcurl holds") == true)
    }

    @Test func aProxyThatRefusedTheTunnelIsNamed() throws {
        let error = CurlError.transferFailure(
            report(Curl.Code.couldntConnect, connectStatus: 403), osErrno: 0, stoppedFor: nil, plan: try plan(proxy: "http://127.0.0.1:9"),
            duringBody: false
        )
        #expect(error.code == .cannotConnectToHost)
        #expect(CurlError.underlying(of: error)?.message.hasPrefix("the proxy refused to open a tunnel (CONNECT answered 403)") == true)
    }
}
