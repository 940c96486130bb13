import Configuration
import Courier
import CourierConfiguration
import CourierCurl
import Foundation
import Testing

/// One value, different from its default, for every key Courier reads, written the three ways a
/// user writes them: in memory, in a JSON file and in the environment.
enum EveryKey {
    static let inMemory: [AbsoluteConfigKey: ConfigValue] = [
        "courier.transport": "curl",
        "courier.redirects.maximum": 5,
        "courier.redirects.allowsInsecure": true,
        "courier.redirects.sensitiveHeaderNames": .init(.stringArray(["X-Api-Key", "X-Session"]), isSecret: false),
        "courier.timeouts.total": 12.5,
        "courier.timeouts.idle": 7.5,
        "courier.userAgent": "courier-tests/1",
        "courier.limits.responseBytes": 1_048_576,
        "courier.limits.headerBytes": 16_384,
        "courier.cookies.enabled": true,
        "courier.cache.directory": .init(.string(cacheDirectory), isSecret: false),
        "courier.cache.maximumBytes": 1_000_000,
        "courier.cache.heuristicFreshness": true,
        "courier.retries.maximumAttempts": 4,
        "courier.retries.initialDelay": 0.25,
        "courier.retries.multiplier": 3,
        "courier.retries.maximumDelay": 8,
        "courier.retries.jitter": 0.1,
        "courier.retries.maximumTime": 20,
        "courier.retries.maximumRetryAfter": 5,
        "courier.retries.statusCodes": .init(.intArray([503, 504]), isSecret: false),
        "courier.retries.anyMethod": true,
        "courier.curl.maximumConnectionsPerHost": 2,
        // An int where seconds are read: a user writing `3` means 3 s.
        "courier.timeouts.connect": 3,
        "courier.curl.verifiesPeer": false,
        "courier.curl.caBundlePath": "/etc/courier/ca.pem",
        "courier.proxy": .init(.string("http://proxy.invalid:3128"), isSecret: true),
        "courier.proxyUser": .init(.string("svc:pa:ss"), isSecret: true),
        "courier.noProxy": .init(.stringArray(["localhost", ".internal"]), isSecret: false),
        "courier.unixSocketPath": "/var/run/courier.sock",
        "courier.resolve": .init(.stringArray(["api.test:443:127.0.0.1"]), isSecret: false),
        "courier.connectTo": .init(.stringArray(["api.test:443:127.0.0.1:8443", "::[::1]:"]), isSecret: false),
        "courier.dohURL": "https://127.0.0.1:8443/dns-query",
        "courier.curl.recordsMetrics": false,
        "courier.curl.caDirectoryPath": "/etc/courier/certs",
        "courier.curl.maximumConcurrentStreams": 8,
        "courier.curl.eventLoopCount": 3,
        "courier.http.version": "http2-prior-knowledge",
        "courier.tls.clientCertificate": "/etc/courier/client.pem",
        "courier.tls.privateKey": "/etc/courier/client.key",
        "courier.tls.privateKeyPassphrase": .init(.string("s3cret"), isSecret: true),
        "courier.tls.pinnedPublicKey": "sha256//AAAA",
        "courier.tls.minimumVersion": "1.3",
        "courier.urlsession.maximumConnectionsPerHost": 3,
        "courier.urlsession.contentDecoding": "identityOnly",
        "courier.urlsession.maximumUnreadBytes": 4_194_304,
        "courier.headers": .init(.stringArray(["X-Team: payments", "Accept-Language: en"]), isSecret: true),
    ]

    static let json = """
        {
          "courier": {
            "transport": "curl",
            "redirects": { "maximum": 5, "allowsInsecure": true, "sensitiveHeaderNames": ["X-Api-Key", "X-Session"] },
            "timeouts": { "total": 12.5, "idle": 7.5, "connect": 3 },
            "userAgent": "courier-tests/1",
            "limits": { "responseBytes": 1048576, "headerBytes": 16384 },
            "cookies": { "enabled": true },
            "cache": { "directory": "\(cacheDirectory)", "maximumBytes": 1000000, "heuristicFreshness": true },
            "proxy": "http://proxy.invalid:3128",
            "proxyUser": "svc:pa:ss",
            "noProxy": ["localhost", ".internal"],
            "unixSocketPath": "/var/run/courier.sock",
            "resolve": ["api.test:443:127.0.0.1"],
            "connectTo": ["api.test:443:127.0.0.1:8443", "::[::1]:"],
            "dohURL": "https://127.0.0.1:8443/dns-query",
            "headers": ["X-Team: payments", "Accept-Language: en"],
            "retries": {
              "maximumAttempts": 4,
              "initialDelay": 0.25,
              "multiplier": 3,
              "maximumDelay": 8,
              "jitter": 0.1,
              "maximumTime": 20,
              "maximumRetryAfter": 5,
              "statusCodes": [503, 504],
              "anyMethod": true
            },
            "curl": {
              "maximumConnectionsPerHost": 2,
              "verifiesPeer": false,
              "caBundlePath": "/etc/courier/ca.pem",
              "recordsMetrics": false,
              "caDirectoryPath": "/etc/courier/certs",
              "maximumConcurrentStreams": 8,
              "eventLoopCount": 3
            },
            "http": { "version": "http2-prior-knowledge" },
            "tls": {
              "clientCertificate": "/etc/courier/client.pem",
              "privateKey": "/etc/courier/client.key",
              "privateKeyPassphrase": "s3cret",
              "pinnedPublicKey": "sha256//AAAA",
              "minimumVersion": "1.3"
            },
            "urlsession": {
              "maximumConnectionsPerHost": 3,
              "contentDecoding": "identityOnly",
              "maximumUnreadBytes": 4194304
            }
          }
        }
        """

    /// The spelling `EnvironmentVariablesProvider` looks up for each key, as the key table
    /// documents it.
    static let environment: [String: String] = [
        "COURIER_TRANSPORT": "curl",
        "COURIER_REDIRECTS_MAXIMUM": "5",
        "COURIER_REDIRECTS_ALLOWS_INSECURE": "true",
        "COURIER_REDIRECTS_SENSITIVE_HEADER_NAMES": "X-Api-Key, X-Session",
        "COURIER_TIMEOUTS_TOTAL": "12.5",
        "COURIER_TIMEOUTS_IDLE": "7.5",
        "COURIER_USER_AGENT": "courier-tests/1",
        "COURIER_LIMITS_RESPONSE_BYTES": "1048576",
        "COURIER_LIMITS_HEADER_BYTES": "16384",
        "COURIER_COOKIES_ENABLED": "true",
        "COURIER_CACHE_DIRECTORY": cacheDirectory,
        "COURIER_CACHE_MAXIMUM_BYTES": "1000000",
        "COURIER_CACHE_HEURISTIC_FRESHNESS": "true",
        "COURIER_RETRIES_MAXIMUM_ATTEMPTS": "4",
        "COURIER_RETRIES_INITIAL_DELAY": "0.25",
        "COURIER_RETRIES_MULTIPLIER": "3",
        "COURIER_RETRIES_MAXIMUM_DELAY": "8",
        "COURIER_RETRIES_JITTER": "0.1",
        "COURIER_RETRIES_MAXIMUM_TIME": "20",
        "COURIER_RETRIES_MAXIMUM_RETRY_AFTER": "5",
        "COURIER_RETRIES_STATUS_CODES": "503,504",
        "COURIER_RETRIES_ANY_METHOD": "true",
        "COURIER_CURL_MAXIMUM_CONNECTIONS_PER_HOST": "2",
        "COURIER_TIMEOUTS_CONNECT": "3",
        "COURIER_CURL_VERIFIES_PEER": "false",
        "COURIER_CURL_CA_BUNDLE_PATH": "/etc/courier/ca.pem",
        "COURIER_PROXY": "http://proxy.invalid:3128",
        "COURIER_PROXY_USER": "svc:pa:ss",
        "COURIER_NO_PROXY": "localhost,.internal",
        "COURIER_UNIX_SOCKET_PATH": "/var/run/courier.sock",
        "COURIER_RESOLVE": "api.test:443:127.0.0.1",
        "COURIER_CONNECT_TO": "api.test:443:127.0.0.1:8443, ::[::1]:",
        "COURIER_DOH_URL": "https://127.0.0.1:8443/dns-query",
        "COURIER_CURL_RECORDS_METRICS": "false",
        "COURIER_CURL_CA_DIRECTORY_PATH": "/etc/courier/certs",
        "COURIER_CURL_MAXIMUM_CONCURRENT_STREAMS": "8",
        "COURIER_CURL_EVENT_LOOP_COUNT": "3",
        "COURIER_HTTP_VERSION": "http2-prior-knowledge",
        "COURIER_TLS_CLIENT_CERTIFICATE": "/etc/courier/client.pem",
        "COURIER_TLS_PRIVATE_KEY": "/etc/courier/client.key",
        "COURIER_TLS_PRIVATE_KEY_PASSPHRASE": "s3cret",
        "COURIER_TLS_PINNED_PUBLIC_KEY": "sha256//AAAA",
        "COURIER_TLS_MINIMUM_VERSION": "1.3",
        "COURIER_URLSESSION_MAXIMUM_CONNECTIONS_PER_HOST": "3",
        "COURIER_URLSESSION_CONTENT_DECODING": "identityOnly",
        "COURIER_URLSESSION_MAXIMUM_UNREAD_BYTES": "4194304",
        "COURIER_HEADERS": "X-Team: payments,Accept-Language: en",
    ]

    static var policies: Policies {
        var policies = Policies()
        policies.redirects = RedirectPolicy(maximumRedirects: 5, allowsInsecureRedirects: true, sensitiveHeaderNames: ["X-Api-Key", "X-Session"])
        policies.totalDeadline = 12.5
        policies.idleTimeout = 7.5
        policies.userAgent = "courier-tests/1"
        policies.headers = ["X-Team": "payments", "Accept-Language": "en"]
        policies.connectTimeout = 3
        policies.maximumResponseBytes = 1_048_576
        policies.maximumHeaderBytes = 16_384
        policies.retries = RetryPolicy(
            maximumAttempts: 4, initialDelay: 0.25, multiplier: 3, maximumDelay: 8, jitter: 0.1, maximumRetryTime: 20,
            retryableStatusCodes: [503, 504], maximumRetryAfter: 5, retriesAnyMethod: true
        )
        return policies
    }

    /// Where `cache.directory` points: made by the readers, in the temporary directory.
    static let cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-configuration-cache").path

    /// `policies` without its cookie store and cache, which compare by identity: every reader
    /// makes new ones.
    static func withoutStore(_ policies: Policies) -> Policies {
        var policies = policies
        policies.cookies = nil
        policies.cache = nil
        return policies
    }

    /// The cache every key asks for: in ``cacheDirectory``, 1,000,000 bytes, heuristics on.
    static func expectCache(_ cache: HTTPCache?, sourceLocation: SourceLocation) {
        let store = cache?.store as? DiskCacheStore
        #expect(store?.directory.standardizedFileURL.path == cacheDirectory, sourceLocation: sourceLocation)
        #expect(store?.maximumBytes == 1_000_000, sourceLocation: sourceLocation)
        #expect(cache?.usesHeuristicFreshness == true, sourceLocation: sourceLocation)
    }

    static var curl: CurlTransport.Configuration {
        var curl = CurlTransport.Configuration()
        curl.policies = policies
        curl.maximumConnectionsPerHost = 2
        curl.verifiesPeer = false
        curl.caBundlePath = "/etc/courier/ca.pem"
        curl.proxy = .url("http://proxy.invalid:3128", credentials: .init(user: "svc", password: "pa:ss"), noProxy: ["localhost", ".internal"])
        curl.unixSocketPath = "/var/run/courier.sock"
        curl.resolve = [.init(host: "api.test", port: 443, addresses: ["127.0.0.1"])]
        curl.connectTo = [
            .init(host: "api.test", port: 443, connectHost: "127.0.0.1", connectPort: 8443),
            .init(host: nil, port: nil, connectHost: "::1", connectPort: nil),
        ]
        curl.dohURL = URL(string: "https://127.0.0.1:8443/dns-query")
        curl.recordsMetrics = false
        curl.caDirectoryPath = "/etc/courier/certs"
        curl.maximumConcurrentStreamsPerConnection = 8
        curl.eventLoopCount = 3
        curl.httpVersion = .http2PriorKnowledge
        curl.clientCertificate = .init(certificatePath: "/etc/courier/client.pem", privateKeyPath: "/etc/courier/client.key", passphrase: "s3cret")
        curl.pinnedPublicKey = "sha256//AAAA"
        curl.minimumTLSVersion = .tls1_3
        return curl
    }

    /// Checks everything a reader of `config` (scoped to `courier`) builds against the values above.
    static func expectEveryValue(in config: ConfigReader, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try TransportKind(config: config) == .curl, sourceLocation: sourceLocation)
        #expect(try withoutStore(Policies(config: config)) == policies, sourceLocation: sourceLocation)
        #expect(try Policies(config: config).cookies != nil, sourceLocation: sourceLocation)
        expectCache(try Policies(config: config).cache, sourceLocation: sourceLocation)
        var curlRead = try CurlTransport.Configuration(config: config)
        #expect(curlRead.policies.cookies != nil, sourceLocation: sourceLocation)
        expectCache(curlRead.policies.cache, sourceLocation: sourceLocation)
        curlRead.policies.cookies = nil
        curlRead.policies.cache = nil
        #expect(curlRead == curl, sourceLocation: sourceLocation)
        let urlSession = try URLSessionTransport.Configuration(config: config)
        #expect(withoutStore(urlSession.policies) == policies, sourceLocation: sourceLocation)
        #expect(urlSession.contentDecoding == .identityOnly, sourceLocation: sourceLocation)
        #expect(urlSession.maximumUnreadBytes == 4_194_304, sourceLocation: sourceLocation)
        #expect(urlSession.maximumConnectionsPerHost == 3, sourceLocation: sourceLocation)
        #expect(urlSession.policies.headers == ["X-Team": "payments", "Accept-Language": "en"], sourceLocation: sourceLocation)
    }
}

/// A JSON file in a directory of its own, removed by `remove()`.
struct TemporaryJSONFile {
    let directory: URL
    let path: String

    init(_ contents: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("courier.json")
        try Data(contents.utf8).write(to: file)
        path = file.path
    }

    /// A reader of this file, scoped to `courier`.
    func reader() async throws -> ConfigReader {
        // FileProvider's own keys name the file, which spares this target a dependency on
        // swift-system for `FilePath`.
        let fileSettings = ConfigReader(provider: InMemoryProvider(values: ["filePath": .init(.string(path), isSecret: false)]))
        let provider = try await FileProvider<JSONSnapshot>(config: fileSettings)
        return ConfigReader(provider: provider).scoped(to: "courier")
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
