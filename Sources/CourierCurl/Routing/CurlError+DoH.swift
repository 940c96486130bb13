#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

extension CurlError {
    /// The error for a transfer whose host name did not resolve through the transport's
    /// DNS-over-HTTPS server, or nil when none is set or that is not why it failed.
    ///
    /// libcurl says only "Couldn't resolve host name" whether the server answered NXDOMAIN or
    /// no address, failed, or could not be reached or verified: the cause stays on its verbose
    /// log. The message says that the name went to the DoH server and which one, so that a
    /// reader looks there rather than at the system's resolver.
    static func dohFailure(code: Int, libcurlSaid: String, plan: CurlRequestPlan) -> URLError? {
        guard code == Curl.Code.couldntResolveHost, let dohURL = plan.dohURL else { return nil }
        let host = plan.wireURL.host.map { "the host name \($0)" } ?? "the host name"
        let server = redactedURLText(dohURL.absoluteString)
        let message = "\(host) did not resolve through DNS over HTTPS at \(server): the DoH server answered no address "
            + "for it, failed, or could not be reached or verified; libcurl said: \(libcurlSaid)"
        return CurlError(kind: .transfer, curlCode: code, message: message).urlError(code: .cannotFindHost, url: plan.url)
    }
}
