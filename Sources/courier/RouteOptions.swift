import ArgumentParser
import Courier
import CourierCurl
import Foundation

/// `courier request`'s flags that change where a request goes, with curl's names and syntax:
/// `-x/--proxy`, `-U/--proxy-user`, `--noproxy`, `--unix-socket`, `--resolve`, `--connect-to`,
/// `--doh-url`.
///
/// Only the curl transport honours them; with `--transport urlsession` any of them fails the
/// request before anything is sent, naming the flag. Unlike curl, courier never reads
/// `http_proxy` and its siblings from the environment, so `-U` and `--noproxy` need `-x`.
struct RouteOptions: ParsableArguments {
    @Option(name: [.customShort("x"), .customLong("proxy")], help: ArgumentHelp("Send through the proxy at URL: http://, https://, socks4://, socks4a://, socks5:// (names resolved here) or socks5h:// (resolved by the proxy); no scheme means http://. user:password@ in the URL is sent to the proxy. \"\" means no proxy. curl transport only.", valueName: "url"))
    var proxy: String?

    @Option(name: [.customShort("U"), .customLong("proxy-user")], help: ArgumentHelp("The proxy's user and password, split at the first colon, then percent-decoded as curl does (%3A for a colon in the user, %25 for a percent sign). Never printed. Needs -x.", valueName: "user:password"))
    var proxyUser: String?

    @Option(name: .customLong("noproxy"), help: ArgumentHelp("Comma-separated hosts reached without the proxy, with curl's rules: a name matches its subdomains, addresses and CIDR ranges match, * matches all. Needs -x.", valueName: "hosts"))
    var noProxy: String?

    @Option(name: .customLong("unix-socket"), help: ArgumentHelp("Connect to the Unix domain socket at PATH; the URL's host goes in the Host header. curl transport only.", valueName: "path"))
    var unixSocket: String?

    @Option(name: .customLong("resolve"), help: ArgumentHelp("Resolve HOST:PORT to ADDRESS[,ADDRESS…] instead of DNS; repeatable. curl transport only.", valueName: "host:port:address"))
    var resolve: [String] = []

    @Option(name: .customLong("connect-to"), help: ArgumentHelp("Connect to CONNECT-TO-HOST:CONNECT-TO-PORT when the URL names HOST:PORT; repeatable. curl transport only.", valueName: "host:port:host:port"))
    var connectTo: [String] = []

    @Option(name: .customLong("doh-url"), help: ArgumentHelp("Resolve host names through the DNS-over-HTTPS server at URL, an https URL whose certificate is always verified (-k does not apply). curl transport only.", valueName: "url"))
    var dohURL: String?

    func validate() throws {
        _ = try curlConfiguration()
    }

    /// The flag given that asks for the most, in `RequestError.unsupportedOption`'s words.
    private var firstGiven: String? {
        if proxy.map({ !$0.isEmpty }) ?? false { return "use a proxy (-x/--proxy)" }
        if unixSocket != nil { return "send over a Unix domain socket (--unix-socket)" }
        if !resolve.isEmpty { return "override DNS (--resolve)" }
        if !connectTo.isEmpty { return "override DNS (--connect-to)" }
        if dohURL != nil { return "resolve host names through DNS over HTTPS (--doh-url)" }
        return nil
    }

    /// `-U`'s value as curl reads it on every version: split at the first colon, then each half
    /// percent-decoded, so `%3A` and `%25` in a password mean `:` and `%` as they do to curl. A
    /// `%` before anything but two hex digits stays as written, and so does `%00`, which curl
    /// refuses: no NUL reaches a header.
    static func proxyCredentials(curlSyntax text: String) -> CurlTransport.ProxyCredentials {
        let split = CurlTransport.ProxyCredentials(userAndPassword: text)
        return CurlTransport.ProxyCredentials(user: percentDecoded(split.user), password: percentDecoded(split.password))
    }

    private static func percentDecoded(_ text: String) -> String {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hex(bytes[index + 1]),
               let low = hex(bytes[index + 2]), high << 4 | low != 0 {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The curl configuration these flags ask for, over `base`.
    ///
    /// - Throws: `ValidationError` (a usage error, exit 64) for a value that does not parse,
    ///   never quoting a password.
    func curlConfiguration(over base: CurlTransport.Configuration = .init()) throws -> CurlTransport.Configuration {
        var configuration = base
        let exceptions = noProxy.map { $0.split(separator: ",").map(String.init) } ?? []
        if let proxy, !proxy.isEmpty {
            configuration.proxy = .url(proxy, credentials: proxyUser.map(Self.proxyCredentials(curlSyntax:)), noProxy: exceptions)
            if let problem = RouteCheck.problem(with: configuration.proxy) {
                throw ValidationError("-x/--proxy: \(problem)")
            }
        } else if proxyUser != nil || noProxy != nil {
            throw ValidationError("\(proxyUser != nil ? "-U/--proxy-user" : "--noproxy") needs -x/--proxy: courier reads no proxy from the environment")
        }
        if let unixSocket {
            if let problem = RouteCheck.problem(withSocketPath: unixSocket) { throw ValidationError("--unix-socket: \(problem)") }
            configuration.unixSocketPath = unixSocket
        }
        do {
            configuration.resolve = try resolve.map(CurlTransport.ResolveOverride.init(curlSyntax:))
            configuration.connectTo = try connectTo.map(CurlTransport.ConnectOverride.init(curlSyntax:))
        } catch {
            throw ValidationError(error.description)
        }
        if let dohURL {
            guard let url = URL(string: dohURL) else {
                throw ValidationError("--doh-url: \(redactedURLText(dohURL).debugDescription) is not a URL")
            }
            if let problem = RouteCheck.problem(withDoHURL: url) { throw ValidationError("--doh-url: \(problem)") }
            configuration.dohURL = url
        }
        return configuration
    }

    /// The curl configuration for `transport`; for urlsession, which cannot honour any of
    /// these flags, a refusal naming the first one given.
    func curlConfiguration(for transport: TransportKind, over base: CurlTransport.Configuration = .init()) throws -> CurlTransport.Configuration {
        if transport == .urlSession, let option = firstGiven {
            throw RequestError.unsupportedOption(option, transport: "URLSessionTransport", supportedBy: "CurlTransport")
        }
        return try curlConfiguration(over: base)
    }
}
