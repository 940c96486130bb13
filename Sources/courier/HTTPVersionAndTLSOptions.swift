import ArgumentParser
import Courier
import CourierCurl

/// `courier request`'s HTTP version and TLS flags, named and read as curl reads them. All of
/// them configure the curl engine; with `--transport urlsession` the ones it cannot honour are
/// refused before anything is sent (see ``refusalOnURLSession(_:)``).
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

    /// `--tlsv1.2`, `--tlsv1.3`: the lowest TLS version; the last one given wins.
    enum TLSVersionFlag: String, EnumerableFlag {
        case tls1_2, tls1_3

        static func name(for value: Self) -> NameSpecification {
            switch value {
            case .tls1_2: .customLong("tlsv1.2")
            case .tls1_3: .customLong("tlsv1.3")
            }
        }

        static func help(for value: Self) -> ArgumentHelp? {
            switch value {
            case .tls1_2: "Use TLS 1.2 or later (the default)."
            case .tls1_3: "Use TLS 1.3 or later (curl transport)."
            }
        }
    }

    @Flag(exclusivity: .chooseLast)
    var httpVersion: HTTPVersionFlag?

    @Option(name: .customLong("alt-svc"), help: ArgumentHelp("Read and write the Alt-Svc cache in this file, so a server's Alt-Svc answer moves later requests, to HTTP/3 with --http3 (curl transport).", valueName: "file"))
    var altSvc: String?

    @Option(name: .customLong("cacert"), help: ArgumentHelp("Trust the CA certificates of this PEM file instead of the system's (curl transport).", valueName: "file"))
    var caBundle: String?

    @Option(name: .customLong("capath"), help: ArgumentHelp("Trust the CA certificates of this directory too, named by hash as `openssl rehash` makes them (curl transport).", valueName: "dir"))
    var caDirectory: String?

    @Option(name: [.customShort("E"), .customLong("cert")], help: ArgumentHelp("Present this PEM client certificate; `file:passphrase` also gives its key's passphrase, `\\:` is a colon in the name (curl transport).", valueName: "certificate[:passphrase]"))
    var certificate: String?

    @Option(name: .customLong("key"), help: ArgumentHelp("The client certificate's private key, a PEM file (default: in the --cert file).", valueName: "file"))
    var key: String?

    @Option(name: .customLong("pass"), help: ArgumentHelp("The private key's passphrase (overrides one given with --cert).", valueName: "phrase"))
    var passphrase: String?

    @Option(name: .customLong("pinnedpubkey"), help: ArgumentHelp("Fail unless the server's public key is this one: sha256//<base64>, several joined by ';', or a public key file (curl transport).", valueName: "hashes"))
    var pinnedPublicKey: String?

    @Flag(exclusivity: .chooseLast)
    var tlsVersion: TLSVersionFlag?

    @Flag(name: [.customShort("k"), .customLong("insecure")], help: "Do not verify the server's certificate or name; a warning says so on stderr (curl transport).")
    var insecure = false

    func validate() throws {
        if certificate == nil, key != nil { throw ValidationError("--key needs --cert: it is the key of the client certificate") }
        if certificate == nil, passphrase != nil { throw ValidationError("--pass needs --cert: it is the passphrase of the client certificate's key") }
        if let certificate, ClientCertificateArgument(certificate).path.isEmpty {
            throw ValidationError("--cert needs a file name before the ':'")
        }
    }

    /// The curl engine's settings with these flags, over `base`.
    func curlConfiguration(over base: CurlTransport.Configuration = .init()) -> CurlTransport.Configuration {
        var configuration = base
        switch httpVersion {
        case .http1_1: configuration.httpVersion = .http1_1
        case .http2PriorKnowledge: configuration.httpVersion = .http2PriorKnowledge
        case .http3: configuration.httpVersion = .http3
        case .http3Only: configuration.httpVersion = .http3Only
        case .http2, nil: configuration.httpVersion = .automatic
        }
        if let altSvc { configuration.altSvcCache = .file(altSvc) }
        configuration.caBundlePath = caBundle
        configuration.caDirectoryPath = caDirectory
        if let certificate {
            let argument = ClientCertificateArgument(certificate)
            configuration.clientCertificate = CurlTransport.ClientCertificate(
                certificatePath: argument.path, privateKeyPath: key, passphrase: passphrase ?? argument.passphrase
            )
        }
        configuration.pinnedPublicKey = pinnedPublicKey
        configuration.minimumTLSVersion = tlsVersion == .tls1_3 ? .tls1_3 : .tls1_2
        if insecure {
            configuration.verifiesPeer = false
            configuration.verifiesHost = false
        }
        return configuration
    }

    /// The error for the first flag `URLSessionTransport` cannot honour, naming it; nil when
    /// none is given.
    func refusalOnURLSession(_ configuration: CurlTransport.Configuration) -> RequestError? {
        guard let setting = configuration.curlOnlySettings.first else { return nil }
        return .unsupportedOption("\(setting.action) (\(flag(for: setting)))", transport: "URLSessionTransport", supportedBy: "CurlTransport")
    }

    private func flag(for setting: CurlTransport.Configuration.CurlOnlySetting) -> String {
        switch setting {
        case .http1_1Only: "--http1.1"
        case .http2PriorKnowledge: "--http2-prior-knowledge"
        case .http3: "--http3"
        case .http3Only: "--http3-only"
        case .altSvcCache: "--alt-svc"
        case .caBundle: "--cacert"
        case .caDirectory: "--capath"
        case .clientCertificate: "--cert"
        case .pinnedPublicKey: "--pinnedpubkey"
        case .minimumTLS1_3: "--tlsv1.3"
        case .noPeerVerification, .noHostVerification: "--insecure"
        }
    }

    /// What `-k` prints on stderr, so that turning verification off is never silent.
    static let insecureWarning = "warning: --insecure: the server's certificate and host name are not verified"
}

/// curl's `--cert certificate[:passphrase]`: split at the first `:` not escaped by `\`; `\:`
/// is a colon and `\\` a backslash in the file name.
struct ClientCertificateArgument: Equatable {
    var path: String
    var passphrase: String?

    init(path: String, passphrase: String?) {
        self.path = path
        self.passphrase = passphrase
    }

    init(_ argument: String) {
        path = ""
        passphrase = nil
        var index = argument.startIndex
        while index < argument.endIndex {
            let character = argument[index]
            let next = argument.index(after: index)
            if character == "\\", next < argument.endIndex, argument[next] == ":" || argument[next] == "\\" {
                path.append(argument[next])
                index = argument.index(after: next)
            } else if character == ":" {
                passphrase = String(argument[next...])
                return
            } else {
                path.append(character)
                index = next
            }
        }
    }
}
