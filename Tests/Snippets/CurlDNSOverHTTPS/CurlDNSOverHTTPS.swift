#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

func transportResolvingOverHTTPS(server: URL, trusting caBundlePath: String?) throws -> CurlTransport {
    var configuration = CurlTransport.Configuration()
    configuration.dohURL = server                    // e.g. https://dns.internal/dns-query
    configuration.caBundlePath = caBundlePath        // verifies the DoH server too; nil for the system's CAs
    return try CurlTransport(configuration: configuration)
}

func isUnresolved(_ error: any Error) -> Bool {
    // A name the DoH server cannot answer, or a server that fails, is a name that did not resolve.
    (error as? URLError)?.code == .cannotFindHost
}
