extension CurlTransport {
    /// The certificate a ``CurlTransport`` presents when a server asks who the client is
    /// (mutual TLS): PEM files, the key possibly encrypted.
    ///
    /// The passphrase is kept out of every description, dump and error message: none of them
    /// quotes it.
    public struct ClientCertificate: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
        /// A PEM file holding the certificate, and its key too when ``privateKeyPath`` is nil
        /// (`CURLOPT_SSLCERT`; curl's `--cert`).
        public var certificatePath: String
        /// A PEM file holding the private key (`CURLOPT_SSLKEY`; curl's `--key`); nil when it is
        /// in the certificate's file.
        public var privateKeyPath: String?
        /// The passphrase of an encrypted key (`CURLOPT_KEYPASSWD`; curl's `--pass`); nil for a
        /// key that is not encrypted.
        public var passphrase: String?

        /// A certificate, its key and the key's passphrase.
        public init(certificatePath: String, privateKeyPath: String? = nil, passphrase: String? = nil) {
            self.certificatePath = certificatePath
            self.privateKeyPath = privateKeyPath
            self.passphrase = passphrase
        }

        /// The paths, and whether a passphrase is set, never what it is.
        public var description: String {
            let key = privateKeyPath.map { ", key: \($0)" } ?? ""
            let passphrase = passphrase == nil ? "" : ", passphrase: <redacted>"
            return "ClientCertificate(certificate: \(certificatePath)\(key)\(passphrase))"
        }

        /// What `dump` and the debugger show: the passphrase redacted, as in ``description``.
        public var customMirror: Mirror {
            Mirror(self, children: [
                "certificatePath": certificatePath,
                "privateKeyPath": privateKeyPath as Any,
                "passphrase": (passphrase == nil ? nil : "<redacted>") as Any,
            ])
        }
    }

    /// The lowest TLS version a ``CurlTransport`` accepts (`CURLOPT_SSLVERSION`).
    public struct TLSVersion: Sendable, Hashable, CustomStringConvertible {
        private let minor: Int

        /// TLS 1.2 (`CURL_SSLVERSION_TLSv1_2`; curl's `--tlsv1.2`).
        public static let tls1_2 = TLSVersion(minor: 2)
        /// TLS 1.3 (`CURL_SSLVERSION_TLSv1_3`; curl's `--tlsv1.3`).
        public static let tls1_3 = TLSVersion(minor: 3)

        private init(minor: Int) {
            self.minor = minor
        }

        /// `1.2` or `1.3`, as the configuration keys spell it; nil for anything else.
        package init?(name: String) {
            switch name {
            case "1.2": self = .tls1_2
            case "1.3": self = .tls1_3
            default: return nil
            }
        }

        /// `TLS 1.2`, `TLS 1.3`.
        public var description: String { "TLS 1.\(minor)" }

        /// The `CURLOPT_SSLVERSION` value.
        var curlValue: Int {
            minor >= 3 ? Curl.TLSVersionValue.tls1_3 : Curl.TLSVersionValue.tls1_2
        }
    }
}
