import Foundation

/// A tiny HTTPS server on 127.0.0.1 for the TLS tests, with no Swift dependency: a Python 3
/// script (`http.server` + `ssl`, written from ``script`` into a temporary directory) serving
/// certificates the `openssl` CLI makes for each test. Routes: `/get` (200, small JSON body)
/// and `/redirect-to?url=U` (302, `Location: U`).
///
/// python3 and openssl are on the CI image; when either is missing the test fails with a
/// ``HTTPSTestServerError`` saying so, it is never skipped. The process is terminated when the
/// test ends, and it also exits by itself when its stdin closes, so even a crashed test process
/// leaves no server behind.
package final class HTTPSTestServer: Sendable {
    /// Which certificate the server presents.
    package enum Identity: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Issued by the test CA (``TLSTestFiles/caBundlePath``) for IP 127.0.0.1 and localhost.
        case caSigned
        /// Issued by the test CA for `wrong.example` only.
        case otherName
        /// Self-signed, for IP 127.0.0.1 and localhost.
        case selfSigned

        package var description: String { rawValue }
    }

    /// What the server demands of its clients beyond a TLS handshake.
    package struct Demands: Sendable {
        /// A client certificate issued by the test CA (the handshake fails without one).
        package var clientCertificate = false
        /// The newest TLS version the server speaks, `"1.2"` or `"1.3"`; nil for its default.
        package var maximumTLSVersion: String? = nil

        package init(clientCertificate: Bool = false, maximumTLSVersion: String? = nil) {
            self.clientCertificate = clientCertificate
            self.maximumTLSVersion = maximumTLSVersion
        }

        var arguments: [String] {
            (clientCertificate ? ["--require-client-certificate"] : [])
                + (maximumTLSVersion.map { ["--maximum-tls=\($0)"] } ?? [])
        }
    }

    private let process: ScriptedServerProcess
    package var port: Int { process.port }

    /// `https://127.0.0.1:<port><pathAndQuery>`.
    package func url(_ pathAndQuery: String) -> URL {
        URL(string: "https://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    private init(process: ScriptedServerProcess) {
        self.process = process
    }

    /// Starts the server with `identity` from `files` and waits (`TestRun.hangLimit` at most) for its port.
    package static func start(
        _ identity: Identity, files: TLSTestFiles, demands: Demands = Demands()
    ) async throws -> HTTPSTestServer {
        let python = try TLSTestFiles.tool("python3")
        let (certificate, key) = files.paths(of: identity)
        return HTTPSTestServer(process: try await ScriptedServerProcess.start(
            "HTTPS test server", name: "https_server.\(identity)", script: script, interpreter: python.path,
            arguments: [certificate, key, files.caBundlePath] + demands.arguments, directory: files.directory
        ))
    }

    /// Terminates the process and waits for it to exit.
    package func stop() {
        process.stop()
    }

    /// The server, run as `python3 -u https_server.py CERT KEY CA [--require-client-certificate]
    /// [--maximum-tls=1.2]`; prints its port, then serves.
    static let script = #"""
    import http.server, json, os, socket, ssl, sys, threading, urllib.parse

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def reply(self, status, headers, body=b""):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            if url.path == "/get":
                body = json.dumps({"path": url.path, "tls": True}).encode()
                self.reply(200, [("Content-Type", "application/json")], body)
            elif url.path == "/redirect-to":
                target = urllib.parse.parse_qs(url.query).get("url", [""])[0]
                self.reply(302, [("Location", target)])
            else:
                self.reply(404, [])

        def log_message(self, format, *args):
            pass

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    if "--require-client-certificate" in sys.argv[4:]:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(sys.argv[3])
    for option in sys.argv[4:]:
        if option.startswith("--maximum-tls="):
            context.maximum_version = {"1.2": ssl.TLSVersion.TLSv1_2, "1.3": ssl.TLSVersion.TLSv1_3}[option.split("=")[1]]
    """# + "\n" + servingOverTLS

    /// The end of a Python script that serves `Handler` over TLS with `context` on 127.0.0.1:
    /// a handshake per connection on its own thread, a lingering close after a failed one, the
    /// port printed once it listens, and an exit when standard input closes. Shared by the
    /// scripts of the TLS test servers.
    package static let servingOverTLS = #"""
    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True

        # The handshake runs on the connection's thread: a client that rejects the
        # certificate ends only its own connection.
        def finish_request(self, request, client_address):
            connection = context.wrap_socket(request, server_side=True, do_handshake_on_connect=False)
            try:
                connection.do_handshake()
            except (ssl.SSLError, OSError):
                # A lingering close, as servers do after an alert: closing with the client's
                # request unread would reset the connection, and the client would see the
                # reset instead of the alert that says what failed.
                try:
                    socket.socket.shutdown(connection, socket.SHUT_WR)
                    connection.settimeout(2)
                    while socket.socket.recv(connection, 65536):
                        pass
                except OSError:
                    pass
                connection.close()
                return
            try:
                self.RequestHandlerClass(connection, client_address, self)
            finally:
                connection.close()

    server = Server(("127.0.0.1", 0), Handler)

    def exit_when_stdin_closes():
        sys.stdin.buffer.read()
        os._exit(0)

    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#
}

/// Certificates for the TLS tests, made by the `openssl` CLI in a fresh temporary directory:
/// a test CA, a leaf it issued for 127.0.0.1/localhost, a leaf it issued for another name, and a
/// self-signed certificate for 127.0.0.1/localhost. EC P-256 keys, valid for two days.
package struct TLSTestFiles: Sendable {
    package let directory: URL

    /// The test CA's certificate, for ``CurlTransport/Configuration/caBundlePath``.
    package var caBundlePath: String { directory.appendingPathComponent("ca.pem").path }

    package func paths(of identity: HTTPSTestServer.Identity) -> (certificate: String, key: String) {
        (directory.appendingPathComponent("\(identity).pem").path, directory.appendingPathComponent("\(identity).key").path)
    }

    /// A client certificate the test CA issued (`clientAuth`), and its key unencrypted.
    package var clientCertificatePath: String { path("client.pem") }
    package var clientKeyPath: String { path("client.key") }
    /// The same key encrypted (AES-256) with ``clientKeyPassphrase``.
    package var encryptedClientKeyPath: String { path("client-encrypted.key") }
    package let clientKeyPassphrase = "courier-test-passphrase"
    /// A self-signed client certificate and its key, which the test CA did not issue.
    package var untrustedClientCertificatePath: String { path("untrusted-client.pem") }
    package var untrustedClientKeyPath: String { path("untrusted-client.key") }
    /// A directory holding only the test CA, named by its subject hash as `CURLOPT_CAPATH` reads.
    package var caDirectoryPath: String { path("ca-directory") }

    /// `sha256//<base64>` of the public key of `identity`'s certificate, as curl's
    /// `--pinnedpubkey` takes it (made with the other files, for caSigned and otherName).
    package func pinnedPublicKey(of identity: HTTPSTestServer.Identity) throws -> String {
        let digest = try String(contentsOfFile: path("\(identity).pin"), encoding: .utf8)
        return "sha256//" + digest.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    package static func make() throws -> TLSTestFiles {
        let openssl = try tool("openssl")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = TLSTestFiles(directory: directory)
        do {
            try files.generate(with: openssl)
        } catch {
            files.remove()
            throw error
        }
        return files
    }

    package func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Every file is made by one shell script, one child process for the lot rather than one
    /// per file: the TLS and HTTP/2 tests make many sets at once.
    private func generate(with openssl: URL) throws {
        var script = OpenSSLScript(openssl: openssl.path)
        try generate(into: &script)
        try runScript(script.text)
    }

    private func generate(into script: inout OpenSSLScript) throws {
        // A config of our own, so the machine's openssl.cnf adds nothing.
        try write("req.cnf", "[req]\ndistinguished_name = dn\n[dn]\n")
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-config", path("req.cnf")]
        let localNames = "subjectAltName=IP:127.0.0.1,DNS:localhost"

        script.run(["req", "-x509", "-new"] + key + [
            "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2", "-subj", "/CN=Courier Test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        for (identity, commonName, names) in [
            (HTTPSTestServer.Identity.caSigned, "127.0.0.1", localNames),
            (.otherName, "wrong.example", "subjectAltName=DNS:wrong.example"),
        ] {
            let (certificate, leafKey) = paths(of: identity)
            try write("\(identity).ext", "\(names)\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
            script.run(["req", "-new"] + key + ["-keyout", leafKey, "-out", path("\(identity).csr"), "-subj", "/CN=\(commonName)"])
            script.run([
                "x509", "-req", "-in", path("\(identity).csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                "-set_serial", identity == .caSigned ? "2" : "3", "-days", "2", "-out", certificate, "-extfile", path("\(identity).ext"),
            ])
        }
        let (certificate, selfSignedKey) = paths(of: .selfSigned)
        script.run(["req", "-x509", "-new"] + key + [
            "-keyout", selfSignedKey, "-out", certificate, "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", localNames,
        ])
        try generateClientFiles(into: &script, key: key)
        for identity in [HTTPSTestServer.Identity.caSigned, .otherName] {
            script.pin(certificate: paths(of: identity).certificate, to: path("\(identity).pin"))
        }
    }

    private func generateClientFiles(into script: inout OpenSSLScript, key: [String]) throws {
        try write("client.ext", "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n")
        script.run(["req", "-new"] + key + ["-keyout", clientKeyPath, "-out", path("client.csr"), "-subj", "/CN=Courier Test Client"])
        script.run([
            "x509", "-req", "-in", path("client.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
            "-set_serial", "4", "-days", "2", "-out", clientCertificatePath, "-extfile", path("client.ext"),
        ])
        script.run([
            "pkey", "-in", clientKeyPath, "-aes256", "-passout", "pass:\(clientKeyPassphrase)", "-out", encryptedClientKeyPath,
        ])
        script.run(["req", "-x509", "-new"] + key + [
            "-keyout", untrustedClientKeyPath, "-out", untrustedClientCertificatePath, "-days", "2",
            "-subj", "/CN=Untrusted Client", "-addext", "extendedKeyUsage=clientAuth",
        ])
        // CURLOPT_CAPATH finds a CA by the hash of its subject: `<hash>.0`, what `openssl rehash` writes.
        try FileManager.default.createDirectory(atPath: caDirectoryPath, withIntermediateDirectories: true)
        script.hashLink(certificate: caBundlePath, into: caDirectoryPath)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    private func runScript(_ text: String) throws {
        let output = directory.appendingPathComponent("openssl.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = try SpawnedProcess(
            executable: "/bin/sh", arguments: ["-e", "-c", text], standardOutput: handle, standardError: handle
        )
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let log = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw HTTPSTestServerError("making the test certificates failed (exit \(process.terminationStatus)):\n\(text)\n\(log)")
        }
    }

    /// `name` found on `PATH`; a missing tool is an error, not a reason to skip.
    package static func tool(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw HTTPSTestServerError(
            "\(name) was not found on PATH (\(path)); the TLS tests need python3 and the openssl CLI, which the CI image provides"
        )
    }
}

/// The openssl commands that make a set of test files, as one `sh -e` script.
private struct OpenSSLScript {
    let openssl: String
    private(set) var text = ""

    init(openssl: String) {
        self.openssl = openssl
    }

    mutating func run(_ arguments: [String]) {
        text += ([openssl] + arguments).map(Self.quoted).joined(separator: " ") + "\n"
    }

    /// The base64 SHA-256 of the certificate's DER public key into `pin`: what curl pins.
    mutating func pin(certificate: String, to pin: String) {
        let tool = Self.quoted(openssl)
        text += "\(tool) x509 -in \(Self.quoted(certificate)) -pubkey -noout | \(tool) pkey -pubin -outform DER"
            + " | \(tool) dgst -sha256 -binary | base64 > \(Self.quoted(pin))\n"
    }

    /// A copy of `certificate` named by its subject hash in `directory`.
    mutating func hashLink(certificate: String, into directory: String) {
        text += "cp \(Self.quoted(certificate)) \(Self.quoted(directory))/\"$(\(Self.quoted(openssl)) x509 -in \(Self.quoted(certificate)) -subject_hash -noout)\".0\n"
    }

    private static func quoted(_ argument: String) -> String {
        "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

package struct HTTPSTestServerError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Runs `body` against a fresh HTTPS server presenting `identity`, with fresh certificates;
/// stops the server and removes the certificates afterwards whatever happens.
package func withHTTPSServer<T>(
    _ identity: HTTPSTestServer.Identity,
    demands: HTTPSTestServer.Demands = HTTPSTestServer.Demands(),
    _ body: (HTTPSTestServer, TLSTestFiles) async throws -> T
) async throws -> T {
    try await withTLSTestServer(start: { try await HTTPSTestServer.start(identity, files: $0, demands: demands) }, stop: { $0.stop() }, body)
}

/// Runs `body` against the server `start` makes with fresh certificates; stops the server and
/// removes the certificates afterwards whatever happens. Stopping waits for the process, so it
/// runs off the cooperative pool.
package func withTLSTestServer<Server: Sendable, T>(
    start: (TLSTestFiles) async throws -> Server,
    stop: @escaping @Sendable (Server) -> Void,
    _ body: (Server, TLSTestFiles) async throws -> T
) async throws -> T {
    let files = try await offThePool { try TLSTestFiles.make() }
    defer { files.remove() }
    let server = try await start(files)
    do {
        let result = try await body(server, files)
        try? await offThePool { stop(server) }
        return result
    } catch {
        try? await offThePool { stop(server) }
        throw error
    }
}
