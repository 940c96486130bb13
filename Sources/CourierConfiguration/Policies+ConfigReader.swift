import Configuration
import Courier

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension Policies {
    /// Reads the policies both transports share from `config`; an absent key keeps the default
    /// of ``/Courier/Policies/init()``.
    ///
    /// Keys are relative to `config`, which the caller scopes (conventionally
    /// `config.scoped(to: "courier")`, so the environment spelling starts with `COURIER_`):
    ///
    /// | Key | Type | Default | Accepted | Sets |
    /// |---|---|---|---|---|
    /// | `redirects.maximum` | int | `20` | 0 or more; 0 returns every 3xx as it is | `redirects.maximumRedirects` |
    /// | `redirects.allowsInsecure` | bool | `false` | `true`, `false` | `redirects.allowsInsecureRedirects` |
    /// | `redirects.sensitiveHeaderNames` | string list | none | header names | `redirects.sensitiveHeaderNames` |
    /// | `timeouts.idle` | double, seconds | `60` | above 0 | `idleTimeout` |
    /// | `timeouts.total` | double, seconds | no limit | above 0 | `totalDeadline` |
    /// | `timeouts.connect` | double, seconds | the idle timeout | above 0; `URLSessionTransport` refuses it | `connectTimeout` |
    /// | `userAgent` | string | `<process> Courier/<version>` | any | `userAgent` |
    /// | `headers` | string list, secret | none | `Name: value` entries; a repeated name's values are joined | `headers` |
    /// | `limits.responseBytes` | int | `67108864` (64 MiB) | 0 or more | `maximumResponseBytes` |
    /// | `limits.headerBytes` | int | `262144` (256 KiB) | 1 or more | `maximumHeaderBytes` |
    /// | `cookies.enabled` | bool | `false` | `true`, `false`; `true` gives a new, empty ``/Courier/CookieStore`` | `cookies` |
    /// | `cache.enabled` | bool | `false` | `true` keeps responses in memory (``/Courier/HTTPCache/init(maximumBytes:usesHeuristicFreshness:)``) | `cache` |
    /// | `cache.directory` | string | none | a directory path; keeps responses there, shared with other processes | `cache` |
    /// | `cache.maximumBytes` | int | `33554432` (32 MiB) in memory, `268435456` (256 MiB) in a directory | 1 or more | the cache's bound |
    /// | `cache.heuristicFreshness` | bool | `false` | `true`, `false` | the cache's `usesHeuristicFreshness` |
    /// | `retries.maximumAttempts` | int | `1` (no retries) | 1 or more | `retries.maximumAttempts` |
    /// | `retries.initialDelay` | double, seconds | `0.5` | 0 or more | `retries.initialDelay` |
    /// | `retries.multiplier` | double | `2` | 1 or more | `retries.multiplier` |
    /// | `retries.maximumDelay` | double, seconds | `30` | 0 or more | `retries.maximumDelay` |
    /// | `retries.jitter` | double | `0.5` | 0...1 | `retries.jitter` |
    /// | `retries.maximumTime` | double, seconds | no limit | above 0 | `retries.maximumRetryTime` |
    /// | `retries.maximumRetryAfter` | double, seconds | `60` | 0 or more | `retries.maximumRetryAfter` |
    /// | `retries.statusCodes` | int list | `408, 429, 500, 502, 503, 504` | 100...599 each | `retries.retryableStatusCodes` |
    /// | `retries.anyMethod` | bool | `false` | `true`, `false` | `retries.retriesAnyMethod` |
    ///
    /// A list is an array in a file and comma-separated in the environment. See
    /// ``CourierCurl/TransportKind/makeTransport(config:)`` for every key of every transport.
    ///
    /// - Throws: ``ConfigurationValueError`` naming the full key, the value and what the key
    ///   accepts, when a value is of the wrong type or out of range.
    public init(config: ConfigReader) throws(ConfigurationValueError) {
        self.init()
        let reader = SettingReader(config)
        redirects.maximumRedirects = try reader.integer(
            "redirects.maximum",
            default: redirects.maximumRedirects,
            minimum: 0,
            accepted: "a whole number, 0 or more (0 returns every redirect response as it is)"
        )
        redirects.allowsInsecureRedirects = try reader.bool("redirects.allowsInsecure", default: redirects.allowsInsecureRedirects)
        if let names = try reader.list(
            "redirects.sensitiveHeaderNames",
            accepted: "a list of header names",
            isValid: HeaderSyntax.isToken
        ) {
            redirects.sensitiveHeaderNames = Set(names)
        }
        idleTimeout = try reader.seconds(
            "timeouts.idle",
            minimum: 0,
            allowsMinimum: false,
            accepted: "a number of seconds above 0"
        ) ?? idleTimeout
        totalDeadline = try reader.seconds(
            "timeouts.total",
            minimum: 0,
            allowsMinimum: false,
            accepted: "a number of seconds above 0 (leave the key out for no limit)"
        ) ?? totalDeadline
        connectTimeout = try reader.seconds(
            "timeouts.connect",
            minimum: 0,
            allowsMinimum: false,
            accepted: "a number of seconds above 0 (leave the key out to bound connecting by the idle timeout)"
        ) ?? connectTimeout
        maximumResponseBytes = try reader.integer(
            "limits.responseBytes",
            default: maximumResponseBytes,
            minimum: 0,
            accepted: "a whole number of bytes, 0 or more"
        )
        maximumHeaderBytes = try reader.integer(
            "limits.headerBytes",
            default: maximumHeaderBytes,
            minimum: 1,
            accepted: "a whole number of bytes, 1 or more"
        )
        userAgent = try reader.string("userAgent", accepted: "a User-Agent string") ?? userAgent
        if let entries = try reader.list(
            "headers",
            isSecret: true,
            accepted: "a list of \"Name: value\" entries",
            isValid: { HeaderSyntax.field($0) != nil }
        ) {
            var headers: [String: String] = [:]
            for entry in entries {
                guard let field = HeaderSyntax.field(entry) else { continue }
                // A repeated name is one field whose values are joined, as RFC 9110 §5.3 allows.
                headers[field.name] = headers[field.name].map { "\($0), \(field.value)" } ?? field.value
            }
            self.headers = headers
        }
        if try reader.bool("cookies.enabled", default: false) {
            cookies = CookieStore()
        }
        cache = try HTTPCache.reading(reader)
        retries = try RetryPolicy(reading: reader, over: retries)
    }
}
