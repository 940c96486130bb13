import ArgumentParser
import Courier
import CourierCurl

/// `courier request`'s HTTP version and TLS flags, named and read as curl reads them. All of
/// them configure the curl engine; with `--transport urlsession` the ones it cannot honour are
/// refused before anything is sent (see ``refusalOnURLSession(_:)``). The TLS flags are a group
/// of their own, ``TLSOptions``, which `courier ws` takes without the HTTP versions.
struct HTTPVersionAndTLSOptions: ParsableArguments {
    /// `--http1.1`, `--http2`, `--http2-prior-knowledge`, `--http3`, `--http3-only`: the last
    /// one given wins, as with curl.
    enum HTTPVersionFlag: String, EnumerableFlag {
        case http1_1, http2, http2PriorKnowledge, http3, http3Only

        static func name(for value: Self) -> NameSpecification {
            switch value {
            case .http1_1: .customLong("http1.1")
            case .http2: .customLong("http2")
            case .http2PriorKnowledge: .customLong("http2-prior-knowledge")
            case .http3: .customLong("http3")
            case .http3Only: .customLong("http3-only")
            }
        }

        static func help(for value: Self) -> ArgumentHelp? {
            switch value {
            case .http1_1: "Speak HTTP/1.1 only (curl transport)."
            case .http2: "HTTP/2 over TLS where the server offers it, HTTP/1.1 otherwise (the default)."
            case .http2PriorKnowledge: "Speak HTTP/2 from the first byte, also over plain http (h2c; curl transport)."
            case .http3: "Try HTTP/3 over QUIC, fall back to HTTP/2 or HTTP/1.1 over TCP (curl transport on a libcurl with HTTP/3)."
            case .http3Only: "Speak HTTP/3 over QUIC or fail (curl transport on a libcurl with HTTP/3)."
            }
        }
    }

    @Flag(exclusivity: .chooseLast)
    var httpVersion: HTTPVersionFlag?

    @Option(name: .customLong("alt-svc"), help: ArgumentHelp("Read and write the Alt-Svc cache in this file, so a server's Alt-Svc answer moves later requests, to HTTP/3 with --http3 (curl transport).", valueName: "file"))
    var altSvc: String?

    @OptionGroup var tls: TLSOptions

    /// The curl engine's settings with these flags, over `base`.
    func curlConfiguration(over base: CurlTransport.Configuration = .init()) -> CurlTransport.Configuration {
        var configuration = tls.curlConfiguration(over: base)
        switch httpVersion {
        case .http1_1: configuration.httpVersion = .http1_1
        case .http2PriorKnowledge: configuration.httpVersion = .http2PriorKnowledge
        case .http3: configuration.httpVersion = .http3
        case .http3Only: configuration.httpVersion = .http3Only
        case .http2, nil: configuration.httpVersion = .automatic
        }
        if let altSvc { configuration.altSvcCache = .file(altSvc) }
        return configuration
    }

    /// The error for the first flag `URLSessionTransport` cannot honour, naming it; nil when
    /// none is given.
    func refusalOnURLSession(_ configuration: CurlTransport.Configuration) -> RequestError? {
        for setting in configuration.curlOnlySettings {
            guard let flag = Self.flag(for: setting) else { continue }
            return .unsupportedOption("\(setting.action) (\(flag))", transport: "URLSessionTransport", supportedBy: "CurlTransport")
        }
        return nil
    }

    private static func flag(for setting: CurlTransport.Configuration.CurlOnlySetting) -> String? {
        switch setting {
        case .http1_1Only: "--http1.1"
        case .http2PriorKnowledge: "--http2-prior-knowledge"
        case .http3: "--http3"
        case .http3Only: "--http3-only"
        case .altSvcCache: "--alt-svc"
        default: TLSOptions.flag(for: setting)
        }
    }
}
