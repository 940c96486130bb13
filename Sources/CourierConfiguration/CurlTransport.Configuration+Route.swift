import Configuration
import Courier
import CourierCurl
import Foundation

/// The keys that change where requests go rather than how an engine behaves: a proxy, a Unix
/// socket, DNS overrides, a DNS-over-HTTPS server. They sit beside `transport`, not under `curl`, because the chosen
/// transport must honour them or refuse them: `URLSessionTransport` cannot, and
/// ``CourierCurl/TransportKind/makeTransport(config:)`` refuses them for it rather than send
/// requests where they were not meant to go.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
enum RouteKeys {
    static let proxy: ConfigKey = "proxy"
    static let proxyUser: ConfigKey = "proxyUser"
    static let noProxy: ConfigKey = "noProxy"
    static let unixSocketPath: ConfigKey = "unixSocketPath"
    static let resolve: ConfigKey = "resolve"
    static let connectTo: ConfigKey = "connectTo"
    static let dohURL: ConfigKey = "dohURL"

    /// Each key with what it asks an engine to do, in the words of
    /// `RequestError.unsupportedOption`.
    static let all: [(key: ConfigKey, option: String)] = [
        (proxy, "use a proxy"),
        (proxyUser, "use a proxy"),
        (noProxy, "use a proxy"),
        (unixSocketPath, "send over a Unix domain socket"),
        (resolve, "override DNS"),
        (connectTo, "override DNS"),
        (dohURL, "resolve host names through DNS over HTTPS"),
    ]

    /// The first routing key `config` sets, with what it asks for; nil when it sets none.
    static func firstSet(in reader: SettingReader) -> (key: String, option: String)? {
        for (key, option) in all {
            if let raw = reader.rawValue(key), !raw.isEmpty { return (reader.fullKey(key), option) }
        }
        return nil
    }

    /// Reads the routing keys into `configuration`.
    static func read(_ reader: SettingReader, into configuration: inout CurlTransport.Configuration) throws(ConfigurationValueError) {
        // The key before the routing keys existed; a configuration that still sets it must not
        // lose its proxy without a word.
        if let legacy = reader.rawValue("curl.proxy"), !legacy.isEmpty {
            throw reader.error("curl.proxy", value: nil, accepted: "nothing: the proxy is \(reader.fullKey(proxy)) now, which every transport honours or refuses")
        }
        let proxyText = try reader.string(proxy, isSecret: true, accepted: "a proxy URL such as http://proxy:3128, or environment")
        let user = try reader.string(proxyUser, isSecret: true, accepted: "user:password")
        let exceptions = try reader.list(noProxy, accepted: "host names, addresses or CIDR ranges") { entry in
            RouteCheck.problem(with: .url("http://proxy", noProxy: [entry])) == nil
        }
        switch proxyText {
        case nil:
            if user != nil { throw reader.error(proxyUser, value: nil, accepted: "user:password, with \(reader.fullKey(proxy)) set") }
            if let exceptions { throw reader.error(noProxy, value: exceptions.joined(separator: ","), accepted: "a list, with \(reader.fullKey(proxy)) set to a URL") }
        case "environment"?:
            if user != nil || exceptions != nil {
                let key = user != nil ? proxyUser : noProxy
                throw reader.error(key, value: nil, accepted: "nothing with \(reader.fullKey(proxy))=environment, which reads them from the environment")
            }
            configuration.proxy = .environment
        case let url?:
            let chosen = CurlTransport.Proxy.url(
                url, credentials: user.map(CurlTransport.ProxyCredentials.init(userAndPassword:)), noProxy: exceptions ?? []
            )
            if RouteCheck.problem(with: chosen) != nil {
                throw reader.error(proxy, value: nil, accepted: "a proxy URL whose scheme is http, https, socks4, socks4a, socks5 or socks5h, or environment")
            }
            configuration.proxy = chosen
        }
        if let path = try reader.string(unixSocketPath, accepted: "the path of a Unix domain socket") {
            if let problem = RouteCheck.problem(withSocketPath: path) {
                throw reader.error(unixSocketPath, value: path, accepted: "the path of a Unix domain socket (\(problem))")
            }
            configuration.unixSocketPath = path
        }
        if let entries = try reader.list(resolve, accepted: "host:port:address[,address…] entries", isValid: { _ in true }) {
            configuration.resolve = []
            for entry in entries {
                do throws(CurlTransport.RouteSyntaxError) {
                    configuration.resolve.append(try CurlTransport.ResolveOverride(curlSyntax: entry))
                } catch {
                    throw reader.error(resolve, value: entry, accepted: "host:port:address[,address…] entries (\(error.expected))")
                }
            }
        }
        if let entries = try reader.list(connectTo, accepted: "HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT entries", isValid: { _ in true }) {
            configuration.connectTo = []
            for entry in entries {
                do throws(CurlTransport.RouteSyntaxError) {
                    configuration.connectTo.append(try CurlTransport.ConnectOverride(curlSyntax: entry))
                } catch {
                    throw reader.error(connectTo, value: entry, accepted: "HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT entries (\(error.expected))")
                }
            }
        }
        if let text = try reader.string(dohURL, accepted: "an https URL of a DNS-over-HTTPS server") {
            guard let url = URL(string: text), RouteCheck.problem(withDoHURL: url) == nil else {
                throw reader.error(dohURL, value: redactedURLText(text), accepted: "an https URL of a DNS-over-HTTPS server, such as https://dns.example/dns-query")
            }
            configuration.dohURL = url
        }
    }
}
