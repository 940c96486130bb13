import ArgumentParser
import Courier
import CourierCurl

/// curl's TLS flags, read as curl reads them: the CA to trust, the client certificate, the
/// pinned key, the lowest version, `-k`. `courier request` takes them within
/// ``HTTPVersionAndTLSOptions``; `courier ws` takes them alone, since a WebSocket's handshake is
/// always HTTP/1.1. Only the curl engine honours them; URLSession refuses them by name.
struct TLSOptions: ParsableArguments {
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
        }
        return configuration
    }

    /// The error for the first of these flags `URLSessionTransport` cannot honour, naming it;
    /// nil when none is given.
    func refusalOnURLSession(_ configuration: CurlTransport.Configuration) -> RequestError? {
        for setting in configuration.curlOnlySettings {
            guard let flag = Self.flag(for: setting) else { continue }
            return .unsupportedOption("\(setting.action) (\(flag))", transport: "URLSessionTransport", supportedBy: "CurlTransport")
        }
        return nil
    }

    /// The flag that asks for `setting`; nil for the HTTP versions', which are
    /// ``HTTPVersionAndTLSOptions``'s.
    static func flag(for setting: CurlTransport.Configuration.CurlOnlySetting) -> String? {
        switch setting {
        case .caBundle: "--cacert"
        case .caDirectory: "--capath"
        case .clientCertificate: "--cert"
        case .pinnedPublicKey: "--pinnedpubkey"
        case .minimumTLS1_3: "--tlsv1.3"
        case .noPeerVerification: "--insecure"
        case .http1_1Only, .http2PriorKnowledge, .http3, .http3Only, .altSvcCache: nil
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
