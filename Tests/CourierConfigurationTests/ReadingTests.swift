import Configuration
import Courier
import CourierConfiguration
import CourierCurl
import Testing

@Suite struct ReadingTests {
    @Test func everyKeyIsReadFromMemory() throws {
        let config = ConfigReader(provider: InMemoryProvider(values: EveryKey.inMemory)).scoped(to: "courier")
        try EveryKey.expectEveryValue(in: config)
    }

    @Test func everyKeyIsReadFromAJSONFile() async throws {
        let file = try TemporaryJSONFile(EveryKey.json)
        defer { file.remove() }
        try EveryKey.expectEveryValue(in: try await file.reader())
    }

    @Test func everyKeyIsReadFromTheEnvironmentSpelling() throws {
        let provider = EnvironmentVariablesProvider(environmentVariables: EveryKey.environment)
        try EveryKey.expectEveryValue(in: ConfigReader(provider: provider).scoped(to: "courier"))
    }

    @Test func courierTransportKeepsWorkingThroughTheEnvironmentProvider() throws {
        func transport(_ environment: [String: String]) throws -> TransportKind {
            try TransportKind(config: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)).scoped(to: "courier"))
        }
        #expect(try transport(["COURIER_TRANSPORT": "curl"]) == .curl)
        #expect(try transport(["COURIER_TRANSPORT": "URLSession"]) == .urlSession)
        #expect(try transport(["COURIER_TRANSPORT": ""]) == .default)
        #expect(try transport([:]) == .default)
        // The same answers as the reader of the variable alone.
        for value in ["curl", "CURL", "urlsession", ""] {
            let environment = ["COURIER_TRANSPORT": value]
            #expect(try transport(environment) == TransportKind(environment: environment))
        }
    }

    @Test func absentKeysKeepEveryDefault() throws {
        let config = ConfigReader(provider: InMemoryProvider(values: [:])).scoped(to: "courier")
        #expect(try TransportKind(config: config) == .urlSession)
        #expect(try Policies(config: config) == Policies())
        #expect(try CurlTransport.Configuration(config: config) == CurlTransport.Configuration())
        let urlSession = try URLSessionTransport.Configuration(config: config)
        let defaults = URLSessionTransport.Configuration()
        #expect(urlSession.policies == defaults.policies)
        #expect(urlSession.maximumConnectionsPerHost == defaults.maximumConnectionsPerHost)
        #expect(urlSession.policies.headers.isEmpty)
    }

    @Test func theDefaultsAreTheDocumentedOnes() throws {
        let policies = try Policies(config: ConfigReader(provider: InMemoryProvider(values: [:])))
        #expect(policies.redirects.maximumRedirects == 20)
        #expect(policies.redirects.allowsInsecureRedirects == false)
        #expect(policies.totalDeadline == nil)
        #expect(policies.idleTimeout == 60)
        #expect(policies.userAgent == nil)
        #expect(policies.maximumResponseBytes == 67_108_864)
        #expect(policies.maximumHeaderBytes == 262_144)
    }

    @Test func emptyStringsCountAsAbsent() throws {
        let provider = EnvironmentVariablesProvider(environmentVariables: [
            "COURIER_PROXY": "",
            "COURIER_CURL_PROXY": "",
            "COURIER_USER_AGENT": "",
        ])
        let config = ConfigReader(provider: provider).scoped(to: "courier")
        #expect(try CurlTransport.Configuration(config: config) == CurlTransport.Configuration())
        #expect(try URLSessionTransport.Configuration(config: config).policies == Policies())
    }

    @Test func laterProvidersFillWhatEarlierOnesLeaveOut() async throws {
        let file = try TemporaryJSONFile(#"{ "courier": { "transport": "urlsession", "redirects": { "maximum": 3 } } }"#)
        defer { file.remove() }
        let environment = EnvironmentVariablesProvider(environmentVariables: ["COURIER_TRANSPORT": "curl"])
        let fileSettings = ConfigReader(provider: InMemoryProvider(values: ["filePath": .init(.string(file.path), isSecret: false)]))
        let config = ConfigReader(providers: [environment, try await FileProvider<JSONSnapshot>(config: fileSettings)])
            .scoped(to: "courier")
        #expect(try TransportKind(config: config) == .curl)
        #expect(try Policies(config: config).redirects.maximumRedirects == 3)
    }

    @Test func keysAreRelativeToTheReadersScope() throws {
        let provider = InMemoryProvider(values: [
            "services.github.transport": "curl",
            "services.github.redirects.maximum": 2,
            "services.billing.redirects.maximum": 0,
        ])
        let config = ConfigReader(provider: provider)
        #expect(try TransportKind(config: config.scoped(to: "services.github")) == .curl)
        #expect(try TransportKind(config: config.scoped(to: "services.billing")) == .urlSession)
        #expect(try Policies(config: config.scoped(to: "services.github")).redirects.maximumRedirects == 2)
        #expect(try Policies(config: config.scoped(to: "services.billing")).redirects.maximumRedirects == 0)
    }

    @Test func repeatedHeaderNamesAreJoined() throws {
        let provider = InMemoryProvider(values: [
            "headers": .init(.stringArray(["Accept: text/html", "Accept:application/json", "X-Empty:"]), isSecret: true),
        ])
        let headers = try Policies(config: ConfigReader(provider: provider)).headers
        #expect(headers == ["Accept": "text/html, application/json", "X-Empty": ""])
    }

    @Test func aSingleStringIsAListOfOne() throws {
        let provider = InMemoryProvider(values: ["redirects.sensitiveHeaderNames": "X-Api-Key"])
        #expect(try Policies(config: ConfigReader(provider: provider)).redirects.sensitiveHeaderNames == ["X-Api-Key"])
    }

    @Test(arguments: ["0", "0.0"])
    func zeroRedirectsAreAccepted(zero: String) throws {
        let provider = EnvironmentVariablesProvider(environmentVariables: ["REDIRECTS_MAXIMUM": zero])
        let curl = try CurlTransport.Configuration(config: ConfigReader(provider: provider))
        #expect(curl.policies.redirects.maximumRedirects == 0)
        #expect(curl.policies.connectTimeout == nil)
    }
}

extension ReadingTests {
    @Test func cacheEnabledKeepsResponsesInMemoryAndNoKeyKeepsNone() throws {
        func cache(_ values: [AbsoluteConfigKey: ConfigValue]) throws -> HTTPCache? {
            try Policies(config: ConfigReader(provider: InMemoryProvider(values: values)).scoped(to: "courier")).cache
        }
        #expect(try cache([:]) == nil)
        let memory = try #require(try cache(["courier.cache.enabled": true, "courier.cache.maximumBytes": 4096]))
        #expect((memory.store as? MemoryCacheStore) != nil)
        #expect(memory.usesHeuristicFreshness == false)
    }
}
