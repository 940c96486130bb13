import Foundation

/// An HTTP/3 server on 127.0.0.1 for the HTTP/3 tests: hypercorn with aioquic (a Python ASGI
/// server, installed by `scripts/hypercorn` into `.build-python/` of the clone), serving one small
/// app over TLS on TCP (HTTP/1.1 and HTTP/2 by ALPN) and over QUIC (HTTP/3), with certificates
/// from ``TLSTestFiles``.
///
/// Routes: `/get` answers JSON with the method, the HTTP version the server spoke (`"3"`, `"2"`,
/// `"1.1"`), the request body's byte count and SHA-256, and the client's address and port (one
/// per connection); `/echo` answers the request body itself. `?delay=SECONDS` waits that long
/// before answering; every answer names the version in `X-HTTP-Version`. Answers over TCP carry
/// `Alt-Svc: h3=":PORT"` naming the QUIC port, when there is one.
///
/// Without hypercorn the test fails with a ``HTTPSTestServerError`` saying how to install it;
/// it is never skipped. The process exits when its stdin closes, so a crashed test leaves no
/// server behind.
package final class HTTP3TestServer: Sendable {
    /// Where QUIC listens.
    package enum QUIC: Sendable {
        /// On the TCP port's number: HTTP/3 is reached directly.
        case samePort
        /// On another port, which only the `Alt-Svc` answer names: HTTP/3 is reached only by
        /// following it.
        case separatePort
        /// Nowhere: nothing answers on UDP, and no `Alt-Svc` is sent.
        case none

        var arguments: [String] {
            switch self {
            case .samePort: []
            case .separatePort: ["--separate-quic-port"]
            case .none: ["--no-quic"]
            }
        }
    }

    private let process: ScriptedServerProcess
    package var port: Int { process.port }

    /// `https://127.0.0.1:<port><path>`.
    package func url(_ path: String) -> URL {
        URL(string: "https://127.0.0.1:\(port)\(path)")!
    }

    private init(process: ScriptedServerProcess) {
        self.process = process
    }

    /// The Python of the venv `scripts/hypercorn` makes: `COURIER_HTTP3_PYTHON`, or
    /// `.build-python/bin/python3` in the clone this file is in.
    package static func python() throws -> String {
        let environment = ProcessInfo.processInfo.environment["COURIER_HTTP3_PYTHON"]
        let clone = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = environment ?? clone.appendingPathComponent(".build-python/bin/python3").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HTTPSTestServerError("no Python with hypercorn at \(path): run scripts/hypercorn (scripts/setup runs it), which installs hypercorn[h3] from PyPI into .build-python/")
        }
        return path
    }

    /// Starts the server with the test CA's certificate for 127.0.0.1 and waits
    /// (`TestRun.hangLimit` at most) for its port.
    package static func start(quic: QUIC = .samePort, files: TLSTestFiles) async throws -> HTTP3TestServer {
        let (certificate, key) = files.paths(of: .caSigned)
        return HTTP3TestServer(process: try await ScriptedServerProcess.start(
            "HTTP/3 test server", name: "http3_server", script: script, interpreter: try python(),
            arguments: [certificate, key] + quic.arguments, directory: files.directory
        ))
    }

    /// Terminates the process and waits for it to exit.
    package func stop() {
        process.stop()
    }

    /// The server, run as `python3 -u http3_server.py CERT KEY [--separate-quic-port | --no-quic]`;
    /// prints its TCP port once it accepts connections, then serves.
    static let script = #"""
    import asyncio, hashlib, json, os, socket, sys, threading, urllib.parse

    from hypercorn.asyncio import serve
    from hypercorn.config import Config

    certificate, key = sys.argv[1], sys.argv[2]
    quic = "--no-quic" not in sys.argv[3:]


    def free_port():
        # A port free on both TCP and UDP, so that QUIC can listen on the same number.
        while True:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as tcp:
                tcp.bind(("127.0.0.1", 0))
                port = tcp.getsockname()[1]
                try:
                    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                        udp.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port


    port = free_port()
    # With --separate-quic-port QUIC listens on another port, which only Alt-Svc names: a client
    # reaches HTTP/3 there only by following it.
    quic_port = free_port() if "--separate-quic-port" in sys.argv[3:] else port
    while quic_port == port and "--separate-quic-port" in sys.argv[3:]:
        quic_port = free_port()


    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        received = hashlib.sha256()
        everything = bytearray()
        count = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return
            chunk = message.get("body", b"")
            received.update(chunk)
            everything += chunk
            count += len(chunk)
            if not message.get("more_body", False):
                break
        path = scope["path"]
        query = urllib.parse.parse_qs(scope["query_string"].decode())
        if "delay" in query:
            # Keeps requests in flight together, so that sharing a connection means multiplexing.
            await asyncio.sleep(float(query["delay"][0]))
        if path == "/echo":
            status, body = 200, bytes(everything)
            kind = b"application/octet-stream"
        elif path == "/get":
            status, kind = 200, b"application/json"
            # The client's address and port: one per connection, QUIC's included.
            client = "%s:%d" % tuple(scope["client"][:2]) if scope.get("client") else ""
            body = json.dumps({
                "path": path, "method": scope["method"], "httpVersion": scope["http_version"],
                "bytes": count, "sha256": received.hexdigest(), "client": client,
            }).encode()
        else:
            status, body, kind = 404, b"{}", b"application/json"
        headers = [
            (b"content-type", kind), (b"content-length", str(len(body)).encode()),
            (b"x-http-version", scope["http_version"].encode()),
        ]
        if quic and scope["http_version"] != "3":
            headers.append((b"alt-svc", f'h3=":{quic_port}"; ma=3600'.encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


    def exit_when_stdin_closes():
        sys.stdin.buffer.read()
        os._exit(0)


    async def main():
        config = Config()
        config.bind = [f"127.0.0.1:{port}"]
        if quic:
            config.quic_bind = [f"127.0.0.1:{quic_port}"]
        config.certfile, config.keyfile = certificate, key
        config.alpn_protocols = ["h2", "http/1.1"]
        config.accesslog = None
        config.errorlog = "-"
        server = asyncio.ensure_future(serve(app, config))
        # The port is printed once the server accepts connections, so a client never races it.
        while True:
            if server.done():
                server.result()
                return
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        print(port, flush=True)
        await server


    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    asyncio.run(main())
    """#
}

/// Runs `body` against a fresh HTTP/3 server with fresh certificates; stops the server and
/// removes the certificates afterwards whatever happens.
package func withHTTP3Server<T>(
    quic: HTTP3TestServer.QUIC = .samePort,
    _ body: (HTTP3TestServer, TLSTestFiles) async throws -> T
) async throws -> T {
    try await withTLSTestServer(start: { try await HTTP3TestServer.start(quic: quic, files: $0) }, stop: { $0.stop() }, body)
}
