import Configuration
import Courier
import CourierConfiguration
import CourierCurl
import Testing

@Suite struct ErrorMessageTests {
    /// A bad value for a key, and the whole message `TransportKind.makeTransport(config:)` gives.
    struct Case: Sendable, CustomTestStringConvertible {
        var key: AbsoluteConfigKey
        var value: ConfigValue
        var message: String
        var testDescription: String { "\(key)" }

        init(_ key: AbsoluteConfigKey, _ value: ConfigValue, _ message: String) {
            self.key = key
            self.value = value
            self.message = message
        }
    }

    static let whole0 = "is not accepted; accepted values: a whole number, 0 or more"
    static let whole1 = "is not accepted; accepted values: a whole number, 1 or more"
    static let bool = "is not accepted; accepted values: true or false"
    static let positiveSeconds = "is not accepted; accepted values: a number of seconds above 0"

    static let cases: [Case] = [
        Case("courier.transport", "libcurl", #"courier.transport="libcurl" is not a transport; accepted values: urlsession, curl (unset means urlsession)"#),
        Case("courier.transport", 1, #"courier.transport="1" is not a transport; accepted values: urlsession, curl (unset means urlsession)"#),
        Case("courier.redirects.maximum", -1, #"courier.redirects.maximum="-1" \#(whole0) (0 returns every redirect response as it is)"#),
        Case("courier.redirects.maximum", 2.5, #"courier.redirects.maximum="2.5" \#(whole0) (0 returns every redirect response as it is)"#),
        Case("courier.redirects.maximum", "five", #"courier.redirects.maximum="five" \#(whole0) (0 returns every redirect response as it is)"#),
        Case("courier.redirects.allowsInsecure", "maybe", #"courier.redirects.allowsInsecure="maybe" \#(bool)"#),
        Case("courier.cache.maximumBytes", 0, #"courier.cache.maximumBytes="0" is not accepted; accepted values: a whole number of bytes, 1 or more"#),
        Case(
            "courier.cache.directory", "/dev/null/cache",
            #"courier.cache.directory="/dev/null/cache" is not accepted; accepted values: the path of a directory this process may create and write (it could not be created: /dev/null is not a directory)"#
        ),
        Case(
            "courier.redirects.sensitiveHeaderNames",
            .init(.stringArray(["X-Api-Key", "X Session"]), isSecret: false),
            #"courier.redirects.sensitiveHeaderNames="X Session" is not accepted; accepted values: a list of header names"#
        ),
        Case("courier.timeouts.total", 0, #"courier.timeouts.total="0.0" is not accepted; accepted values: a number of seconds above 0 (leave the key out for no limit)"#),
        Case("courier.timeouts.total", "soon", #"courier.timeouts.total="soon" is not accepted; accepted values: a number of seconds above 0 (leave the key out for no limit)"#),
        Case("courier.limits.responseBytes", -1, #"courier.limits.responseBytes="-1" is not accepted; accepted values: a whole number of bytes, 0 or more"#),
        Case("courier.limits.headerBytes", 0, #"courier.limits.headerBytes="0" is not accepted; accepted values: a whole number of bytes, 1 or more"#),
        Case("courier.retries.maximumAttempts", 0, #"courier.retries.maximumAttempts="0" is not accepted; accepted values: a whole number, 1 or more (1 sends every request once)"#),
        Case("courier.retries.jitter", 1.5, #"courier.retries.jitter="1.5" is not accepted; accepted values: a fraction from 0 (no jitter) to 1 (full jitter)"#),
        Case("courier.retries.statusCodes", .init(.intArray([503, 99]), isSecret: false), #"courier.retries.statusCodes="99" is not accepted; accepted values: a list of status codes, each 100...599"#),
        Case("courier.retries.multiplier", 0.5, #"courier.retries.multiplier="0.5" is not accepted; accepted values: a number, 1 or more (1 waits the same each time)"#),
        Case("courier.curl.maximumConnectionsPerHost", 0, #"courier.curl.maximumConnectionsPerHost="0" \#(whole1)"#),
        Case("courier.curl.eventLoopCount", 257, #"courier.curl.eventLoopCount="257" is not accepted; accepted values: a whole number, 1 to 256"#),
        Case("courier.curl.eventLoopCount", 0, #"courier.curl.eventLoopCount="0" is not accepted; accepted values: a whole number, 1 to 256"#),
        Case(
            "courier.timeouts.connect",
            -1.5,
            #"courier.timeouts.connect="-1.5" is not accepted; accepted values: a number of seconds above 0 (leave the key out to bound connecting by the idle timeout)"#
        ),
        Case("courier.curl.verifiesPeer", "sometimes", #"courier.curl.verifiesPeer="sometimes" \#(bool)"#),
        // Part of `verifiesPeer` now: refused rather than ignored, which would leave the check on.
        Case(
            "courier.curl.verifiesHost", false,
            #"courier.curl.verifiesHost="false" is not accepted; accepted values: nothing: courier.curl.verifiesPeer checks the host name too"#
        ),
        Case("courier.curl.caBundlePath", true, #"courier.curl.caBundlePath="true" is not accepted; accepted values: a path to a PEM file of CA certificates"#),
        // A secret is never quoted back.
        Case("courier.proxy", 3128, "courier.proxy=<secret> is not accepted; accepted values: a proxy URL such as http://proxy:3128, or environment"),
        Case(
            "courier.proxy", .init(.string("ftp://svc:hunter2@proxy.test"), isSecret: true),
            "courier.proxy=<secret> is not accepted; accepted values: a proxy URL whose scheme is http, https, socks4, socks4a, socks5 or socks5h, or environment"
        ),
        // The key before `courier.proxy`: refused rather than dropped without a word.
        Case(
            "courier.curl.proxy", "http://proxy.test:3128",
            "courier.curl.proxy=<secret> is not accepted; accepted values: nothing: the proxy is courier.proxy now, which every transport honours or refuses"
        ),
        Case("courier.proxyUser", .init(.string("svc:hunter2"), isSecret: true), "courier.proxyUser=<secret> is not accepted; accepted values: user:password, with courier.proxy set"),
        Case(
            "courier.noProxy", .init(.stringArray(["a b"]), isSecret: false),
            #"courier.noProxy="a b" is not accepted; accepted values: host names, addresses or CIDR ranges"#
        ),
        Case("courier.unixSocketPath", 7, #"courier.unixSocketPath="7" is not accepted; accepted values: the path of a Unix domain socket"#),
        Case(
            "courier.resolve", .init(.stringArray(["api.test:443:localhost"]), isSecret: false),
            #"courier.resolve="api.test:443:localhost" is not accepted; accepted values: host:port:address[,address…] entries ("localhost" is not an IPv4 or IPv6 address)"#
        ),
        Case(
            "courier.connectTo", .init(.stringArray(["api.test:443"]), isSecret: false),
            #"courier.connectTo="api.test:443" is not accepted; accepted values: HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT entries (HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT (an empty part matches or keeps any))"#
        ),
        Case("courier.userAgent", 7, #"courier.userAgent="7" is not accepted; accepted values: a User-Agent string"#),
        Case("courier.curl.recordsMetrics", "maybe", #"courier.curl.recordsMetrics="maybe" \#(bool)"#),
        Case("courier.curl.maximumConcurrentStreams", 0, #"courier.curl.maximumConcurrentStreams="0" \#(whole1)"#),
        Case(
            "courier.http.version", "h2",
            #"courier.http.version="h2" is not accepted; accepted values: automatic, http1.1, http2-prior-knowledge, http3, http3-only"#
        ),
        Case("courier.tls.minimumVersion", "1.1", #"courier.tls.minimumVersion="1.1" is not accepted; accepted values: 1.2, 1.3"#),
        Case(
            "courier.tls.privateKeyPassphrase", .init(.string("s3cret"), isSecret: true),
            "courier.tls.privateKeyPassphrase=<secret> is not accepted; accepted values: the private key's passphrase, with tls.clientCertificate set"
        ),
        Case(
            "courier.tls.privateKey", "/k.pem",
            #"courier.tls.privateKey="/k.pem" is not accepted; accepted values: a path to a PEM private key, with tls.clientCertificate set"#
        ),
        Case("courier.timeouts.idle", 0, #"courier.timeouts.idle="0.0" \#(positiveSeconds)"#),
        Case("courier.urlsession.maximumConnectionsPerHost", -2, #"courier.urlsession.maximumConnectionsPerHost="-2" \#(whole1)"#),
        Case("courier.urlsession.contentDecoding", "gzip", #"courier.urlsession.contentDecoding="gzip" is not accepted; accepted values: identityOnly, all"#),
        Case(
            "courier.headers",
            .init(.stringArray(["Authorization Bearer t0ken"]), isSecret: true),
            #"courier.headers=<secret> is not accepted; accepted values: a list of "Name: value" entries"#
        ),
    ]

    @Test(arguments: cases)
    func eachBadValueNamesTheFullKeyAndWhatItAccepts(_ bad: Case) {
        let config = ConfigReader(provider: InMemoryProvider(values: [bad.key: bad.value])).scoped(to: "courier")
        let error = #expect(throws: (any Error).self) { try TransportKind.makeTransport(config: config) }
        #expect(error.map { String(describing: $0) } == bad.message)
    }

    @Test func theErrorsAreTypedForCode() {
        let config = ConfigReader(provider: InMemoryProvider(values: ["courier.limits.headerBytes": 0])).scoped(to: "courier")
        #expect(throws: ConfigurationValueError(key: "courier.limits.headerBytes", value: "0", accepted: "a whole number of bytes, 1 or more")) {
            try Policies(config: config)
        }
        let transport = ConfigReader(provider: InMemoryProvider(values: ["courier.transport": "nio"])).scoped(to: "courier")
        #expect(throws: TransportSelectionError(value: "nio", source: "courier.transport")) {
            try TransportKind(config: transport)
        }
    }

    @Test func environmentValuesAreQuotedAsWritten() {
        let provider = EnvironmentVariablesProvider(environmentVariables: [
            "COURIER_TRANSPORT": "curl",
            "COURIER_REDIRECTS_MAXIMUM": "twenty",
        ])
        let error = #expect(throws: ConfigurationValueError.self) {
            try TransportKind.makeTransport(config: ConfigReader(provider: provider).scoped(to: "courier"))
        }
        #expect(error?.description == #"courier.redirects.maximum="twenty" \#(Self.whole0) (0 returns every redirect response as it is)"#)

        let bad = EnvironmentVariablesProvider(environmentVariables: ["COURIER_TRANSPORT": "curl-multi"])
        let transportError = #expect(throws: TransportSelectionError.self) {
            try TransportKind(config: ConfigReader(provider: bad).scoped(to: "courier"))
        }
        #expect(
            transportError?.description
                == #"courier.transport="curl-multi" is not a transport; accepted values: urlsession, curl (unset means urlsession)"#
        )
    }

    @Test func aStringWhereANumberOrBoolBelongsIsNamed() async throws {
        let file = try TemporaryJSONFile(#"{ "courier": { "limits": { "responseBytes": "64MiB" } } }"#)
        defer { file.remove() }
        let config = try await file.reader()
        // In a JSON file, numbers and bools are JSON's own: "64MiB", or even "5", is a string.
        let error = #expect(throws: ConfigurationValueError.self) { try Policies(config: config) }
        #expect(error?.description == #"courier.limits.responseBytes="64MiB" is not accepted; accepted values: a whole number of bytes, 0 or more"#)

        let memory = ConfigReader(provider: InMemoryProvider(values: ["curl.verifiesPeer": "yes"]))
        let boolError = #expect(throws: ConfigurationValueError.self) { try CurlTransport.Configuration(config: memory) }
        #expect(boolError?.description == #"curl.verifiesPeer="yes" \#(Self.bool)"#)
    }

    /// The key is named as a file spells it, through every scope the reader was given, so the
    /// message points at the right line when Courier is configured under another name.
    @Test func theFullKeyIncludesEveryScope() {
        let config = ConfigReader(provider: InMemoryProvider(values: ["app.clients.github.redirects.maximum": -3]))
        let scoped = #expect(throws: ConfigurationValueError.self) {
            try Policies(config: config.scoped(to: "app").scoped(to: "clients.github"))
        }
        #expect(scoped?.key == "app.clients.github.redirects.maximum")

        let root = ConfigReader(provider: InMemoryProvider(values: ["redirects.maximum": -3]))
        let unscoped = #expect(throws: ConfigurationValueError.self) { try Policies(config: root) }
        #expect(unscoped?.key == "redirects.maximum")
    }
}
