import Configuration
import Courier
import CourierConfiguration
import CourierCurl
import Testing

/// The shared `http` and `tls` keys ask for what only the curl engine does: with `urlsession`
/// chosen they fail before anything is sent, naming the key and the engine that can.
@Suite struct URLSessionRefusalTests {
    static let refused: [(key: AbsoluteConfigKey, value: String, action: String)] = [
        ("courier.http.version", "http2-prior-knowledge", "speak HTTP/2 with prior knowledge (h2c)"),
        ("courier.http.version", "http1.1", "limit itself to HTTP/1.1"),
        ("courier.http.version", "http3", "speak HTTP/3"),
        ("courier.http.version", "http3-only", "speak HTTP/3 only"),
        ("courier.tls.clientCertificate", "/etc/courier/client.pem", "present a client certificate"),
        ("courier.tls.pinnedPublicKey", "sha256//AAAA", "pin the server's public key"),
        ("courier.tls.minimumVersion", "1.3", "require TLS 1.3"),
    ]

    @Test(arguments: 0..<refused.count)
    func aCurlOnlyKeyIsRefusedOnURLSession(_ index: Int) throws {
        let (key, value, action) = Self.refused[index]
        let config = ConfigReader(provider: InMemoryProvider(values: [
            "courier.transport": "urlsession",
            key: .init(.string(value), isSecret: false),
        ])).scoped(to: "courier")
        let error = #expect(throws: RequestError.self) { try TransportKind.makeTransport(config: config) }
        #expect(error == .unsupportedOption("\(action) (\(key))", transport: "URLSessionTransport", supportedBy: "CurlTransport"))
        #expect(error?.description == "URLSessionTransport cannot \(action) (\(key)); nothing was sent (CurlTransport can)")
    }

    @Test(arguments: 0..<refused.count)
    func theSameKeyIsHonouredOnCurl(_ index: Int) throws {
        var (key, value, _) = Self.refused[index]
        // The curl transport opens a client certificate's file when it is created; any readable
        // file passes, what it holds is read at a handshake.
        if key == "courier.tls.clientCertificate" { value = #filePath }
        let config = ConfigReader(provider: InMemoryProvider(values: [
            "courier.transport": "curl",
            key: .init(.string(value), isSecret: false),
        ])).scoped(to: "courier")
        let transport = try TransportKind.makeTransport(config: config)
        #expect(transport is CurlTransport)
    }

    /// What URLSession does anyway is no reason to refuse.
    @Test func theDefaultsSpeltOutAreAccepted() throws {
        let config = ConfigReader(provider: InMemoryProvider(values: [
            "courier.transport": "urlsession",
            "courier.http.version": "automatic",
            "courier.tls.minimumVersion": "1.2",
            "courier.curl.caDirectoryPath": "/etc/courier/certs",
        ])).scoped(to: "courier")
        #expect(try TransportKind.makeTransport(config: config) is URLSessionTransport)
    }
}
