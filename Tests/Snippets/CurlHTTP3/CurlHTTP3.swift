#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

func fetchOverHTTP3IfOffered(_ url: URL) async throws -> HTTPVersion {
    var configuration = CurlTransport.Configuration()
    configuration.httpVersion = .http3                   // QUIC first, TCP if nothing answers on UDP
    configuration.altSvcCache = .inMemory                // Alt-Svc: h3=… moves later requests to HTTP/3
    let transport = try CurlTransport(configuration: configuration)
    guard transport.capabilities.speaksHTTP3 else {      // false on a libcurl without HTTP/3
        await transport.shutdown()
        return .http1_1
    }
    let (_, head) = try await transport.stream(for: URLRequest(url: url))
    await transport.shutdown()
    return head.httpVersion                              // .http3, or .http2 after a fallback
}
