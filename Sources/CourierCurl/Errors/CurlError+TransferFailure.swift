#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension CurlError {
    /// The error the awaiting task of a transfer that libcurl ended without `CURLE_OK` gets:
    /// what its callbacks stopped it for, when they did (libcurl then only says a callback
    /// aborted); otherwise what its proxy or DNS-over-HTTPS server did, when that is why;
    /// otherwise libcurl's code and words, with a TLS failure said more plainly.
    ///
    /// `report` is what libcurl reported of the transfer, its proxy's part included, and
    /// `osErrno` its `CURLINFO_OS_ERRNO`, both read from the handle once the transfer ended;
    /// `duringBody`: a streamed body's head was handed over.
    static func transferFailure(
        _ report: ProxyOutcome, osErrno: Int32, stoppedFor stopReason: CurlStopReason?, plan: CurlRequestPlan,
        duringBody: Bool
    ) -> URLError {
        let url = plan.url
        if let stopReason { return stopReason.urlError(url: url) }
        let code = report.code
        let proxy = plan.proxy
        if proxy.isEnabled, plan.unixSocketPath == nil, let (urlCode, error) = proxyFailure(report, proxy: proxy) {
            return error.urlError(code: urlCode, url: url)
        }
        if let failure = dohFailure(code: code, libcurlSaid: report.libcurlSaid, plan: plan) { return failure }
        var text = proxy.redacting(Self.message(forCode: code, libcurlSaid: report.libcurlSaid, duringBody: duringBody))
        if code == Curl.Code.operationTimedOut, report.libcurlSaid.hasPrefix("Operation too slow") {
            // libcurl's low-speed backstop (CURLOPT_LOW_SPEED_TIME) and the engine's idle clock
            // enforce one limit; whichever sees it first, the error says it in the same words.
            text = "no data received or sent for \(plan.idleTimeout.formattedSeconds)"
        }
        var urlCode = urlErrorCode(curlCode: code, osErrno: osErrno)
        if let tls = tlsFailure(curlCode: code, libcurlSaid: report.libcurlSaid) {
            (urlCode, text) = (tls.code, proxy.redacting(tls.message))
        }
        return CurlError(kind: .transfer, curlCode: code, message: text).urlError(code: urlCode, url: url)
    }
}
