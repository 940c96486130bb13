#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

/// Both engines over one cache in `directory`, which other processes may share.
func cachingTransports(in directory: URL) throws -> (URLSessionTransport, CurlTransport) {
    var policies = Policies()
    policies.cache = try HTTPCache(directory: directory, maximumBytes: 512 << 20)
    var curl = CurlTransport.Configuration()
    curl.policies = policies
    return (URLSessionTransport(configuration: .init(policies: policies)), try CurlTransport(configuration: curl))
}

/// Where the answer came from: `.network`, `.cache`, or `.revalidated` after a 304.
func source(of url: URL, over transport: some HTTPTransport) async throws -> ResponseSource {
    let (body, head) = try await transport.stream(for: URLRequest(url: url))
    _ = try await body.collect(upTo: 1 << 20)           // a body read to its end is stored
    return head.metrics.source
}
