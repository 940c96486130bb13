#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

func versionSpokenBySidecar(_ url: URL) async throws -> HTTPVersion {
    var configuration = CurlTransport.Configuration()
    configuration.httpVersion = .http2PriorKnowledge     // h2c; the default is h2 over TLS by ALPN
    let transport = try CurlTransport(configuration: configuration)
    let (body, head) = try await transport.stream(for: URLRequest(url: url))
    _ = try await body.collect(upTo: 1 << 20)
    await transport.shutdown()
    return head.httpVersion                              // .http2
}
