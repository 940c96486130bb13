#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CurlTransport.ClientCertificate {
    /// The error for the first file of this identity that cannot be opened for reading, so that a
    /// transport with a missing certificate or key fails when it is created, naming the file,
    /// rather than at each handshake as a TLS failure; nil when both can be read.
    ///
    /// Only opening is checked: whether the file holds a PEM certificate, and whether the
    /// passphrase decrypts the key, only libcurl can tell, at the handshake
    /// (``CurlError/clientCertificateFailure(_:identity:)``).
    func unreadableFileError() -> CurlError? {
        var files = [("client certificate", certificatePath, "certificatePath")]
        if let privateKeyPath { files.append(("client certificate's private key", privateKeyPath, "privateKeyPath")) }
        for (role, path, property) in files {
            if let problem = Self.problem(opening: path) {
                return CurlError(
                    kind: .clientCertificateUnusable, curlCode: Curl.Code.sslCertProblem,
                    message: "the \(role) \(path) \(problem) (ClientCertificate.\(property)); nothing was sent"
                )
            }
        }
        return nil
    }

    /// Why `path` cannot be read, in words that follow the path; nil when it can be opened and is
    /// not a directory. Non-blocking, so that a FIFO without a writer cannot hang the caller.
    private static func problem(opening path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return "does not exist" }
            return "cannot be read: \(String(cString: strerror(code)))"
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return "cannot be read: \(String(cString: strerror(errno)))" }
        if (status.st_mode & S_IFMT) == S_IFDIR { return "is a directory, not a PEM file" }
        return nil
    }
}

extension CurlError {
    /// For a transfer libcurl ended with `CURLE_SSL_CERTPROBLEM` (it could not load the client
    /// certificate or its key, before the handshake began), the ``Kind/clientCertificateUnusable``
    /// error naming the file and what is wrong with it; nil for every other outcome.
    ///
    /// A wrong passphrase and a key that does not match the certificate both come from OpenSSL as
    /// a key it cannot use, and libcurl's words do not tell them apart, so neither does this. No
    /// text here or from libcurl quotes the passphrase.
    static func clientCertificateFailure(_ report: ProxyOutcome, identity: CurlTransport.ClientCertificate?) -> CurlError? {
        guard report.code == Curl.Code.sslCertProblem else { return nil }
        let text = report.libcurlSaid
        let certificate = identity?.certificatePath ?? "(none configured)"
        let what: String
        if text.lowercased().contains("private key") {
            let key = identity?.privateKeyPath ?? certificate
            what = "the client certificate's private key \(key) cannot be used with the certificate \(certificate): a wrong or missing passphrase, a key that does not match the certificate, or not a PEM key"
        } else {
            what = "the client certificate \(certificate) cannot be loaded: not a PEM certificate, or a key in the same file that needs a passphrase"
        }
        return CurlError(kind: .clientCertificateUnusable, curlCode: report.code, message: "\(what); libcurl said: \(text)")
    }
}
