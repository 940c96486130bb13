#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

func proxiedTransport(password: String) throws -> CurlTransport {
    var configuration = CurlTransport.Configuration()
    configuration.proxy = .url("socks5h://proxy.internal:1080", credentials: .init(user: "svc", password: password),
                               noProxy: ["localhost", ".internal"])    // reached directly
    return try CurlTransport(configuration: configuration)
}

func dockerVersion(over transport: CurlTransport) async throws -> Data {
    // http+unix://%2Fvar%2Frun%2Fdocker.sock/version: one request over the socket
    guard let url = URL.unixSocket("/var/run/docker.sock", path: "/version") else { throw URLError(.badURL) }
    return try await transport.data(for: URLRequest(url: url)).0
}
