import Configuration
import Courier
import CourierConfiguration
import CourierCurl
import Testing

/// The routing keys (`courier.proxy` to `courier.dohURL`) say where requests go: the curl
/// transport honours them, and URLSession, which cannot, refuses them before any request.
@Suite struct RouteKeyTests {
    static let keys: [(AbsoluteConfigKey, ConfigValue, String)] = [
        ("courier.proxy", .init(.string("socks5h://svc:hunter2@127.0.0.1:1080"), isSecret: true), "use a proxy (courier.proxy)"),
        ("courier.proxy", "environment", "use a proxy (courier.proxy)"),
        ("courier.unixSocketPath", "/var/run/docker.sock", "send over a Unix domain socket (courier.unixSocketPath)"),
        ("courier.resolve", .init(.stringArray(["api.test:443:127.0.0.1"]), isSecret: false), "override DNS (courier.resolve)"),
        ("courier.connectTo", .init(.stringArray(["api.test:443:127.0.0.1:8443"]), isSecret: false), "override DNS (courier.connectTo)"),
        ("courier.dohURL", "https://127.0.0.1:8443/dns-query", "resolve host names through DNS over HTTPS (courier.dohURL)"),
    ]

    @Test(arguments: 0..<keys.count)
    func urlSessionRefusesARoutingKeyWithoutQuotingIt(_ index: Int) {
        let (key, value, option) = Self.keys[index]
        let config = ConfigReader(provider: InMemoryProvider(values: ["courier.transport": "urlsession", key: value]))
        let error = #expect(throws: RequestError.self) { try TransportKind.makeTransport(config: config.scoped(to: "courier")) }
        #expect(error == .unsupportedOption(option, transport: "URLSessionTransport", supportedBy: "CurlTransport"))
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test(arguments: 0..<keys.count)
    func curlHonoursTheSameKey(_ index: Int) async throws {
        let (key, value, _) = Self.keys[index]
        let config = ConfigReader(provider: InMemoryProvider(values: ["courier.transport": "curl", key: value]))
        let transport = try TransportKind.makeTransport(config: config.scoped(to: "courier"))
        #expect(transport.capabilities.connectsThroughProxies)
        await transport.shutdown()
    }

    @Test func environmentMeansTheProcessEnvironment() throws {
        let config = ConfigReader(provider: InMemoryProvider(values: ["proxy": "environment"]))
        #expect(try CurlTransport.Configuration(config: config).proxy == .environment)
    }

    @Test func aDoHURLIsReadAsAURL() throws {
        let config = ConfigReader(provider: InMemoryProvider(values: ["dohURL": "https://127.0.0.1:8443/dns-query"]))
        #expect(try CurlTransport.Configuration(config: config).dohURL?.absoluteString == "https://127.0.0.1:8443/dns-query")
    }

    @Test(arguments: ["http://127.0.0.1:8053/dns-query", "dns.example", "https://svc:hunter2@/dns-query"])
    func aDoHURLThatIsNotHTTPSIsRefusedNamingTheKey(text: String) {
        let config = ConfigReader(provider: InMemoryProvider(values: ["dohURL": .init(.string(text), isSecret: false)]))
        let error = #expect(throws: ConfigurationValueError.self) { try CurlTransport.Configuration(config: config) }
        #expect(error?.key == "dohURL")
        #expect(error?.description.contains("an https URL of a DNS-over-HTTPS server") == true, "\(String(describing: error))")
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test func aProxyUserWithAnEnvironmentProxyIsRefused() {
        let config = ConfigReader(provider: InMemoryProvider(values: [
            "proxy": "environment", "proxyUser": .init(.string("svc:hunter2"), isSecret: true),
        ]))
        let error = #expect(throws: ConfigurationValueError.self) { try CurlTransport.Configuration(config: config) }
        #expect(error?.key == "proxyUser")
        #expect(error?.value == nil)
    }
}
