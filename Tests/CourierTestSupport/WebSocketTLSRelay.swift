import Foundation

/// TLS in front of a plain WebSocket server: a Python relay on 127.0.0.1 that ends TLS with
/// the test certificates and pumps the bytes to and from `targetPort`, so wss:// meets the
/// same NIOWebSocket server as ws://. One thread per connection, which reads whichever side
/// has bytes (TLS's own buffer first) and writes them whole to the other.
package struct WebSocketTLSRelay: Sendable {
    private let process: ScriptedServerProcess
    package var port: Int { process.port }

    package static func start(to targetPort: Int, files: TLSTestFiles) async throws -> WebSocketTLSRelay {
        let python = try TLSTestFiles.tool("python3")
        let (certificate, key) = files.paths(of: .caSigned)
        return WebSocketTLSRelay(process: try await ScriptedServerProcess.start(
            "WebSocket TLS relay", name: "websocket_tls_relay", script: script, interpreter: python.path,
            arguments: [certificate, key, String(targetPort)], directory: files.directory
        ))
    }

    package func stop() {
        process.stop()
    }

    static let script = #"""
    import os, select, socket, ssl, sys, threading

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    target = int(sys.argv[3])
    listener = socket.create_server(("127.0.0.1", 0))

    def relay(client):
        try:
            tls = context.wrap_socket(client, server_side=True)
            upstream = socket.create_connection(("127.0.0.1", target))
        except (ssl.SSLError, OSError):
            client.close()
            return
        try:
            while True:
                ready = [tls] if tls.pending() else select.select([tls, upstream], [], [])[0]
                for source in ready:
                    data = source.recv(65536)
                    if not data:
                        return
                    (upstream if source is tls else tls).sendall(data)
        except (ssl.SSLError, OSError):
            pass
        finally:
            upstream.close()
            tls.close()

    def exit_when_stdin_closes():
        sys.stdin.buffer.read()
        os._exit(0)

    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    print(listener.getsockname()[1], flush=True)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=relay, args=(client,), daemon=True).start()
    """#
}

/// Runs `body` against a fresh TLS relay to the plain server on `targetPort`, with fresh
/// certificates (the test CA's is ``TLSTestFiles/caBundlePath``); stops it and removes the
/// certificates afterwards whatever happens.
package func withWebSocketTLSRelay<T>(
    to targetPort: Int,
    _ body: (WebSocketTLSRelay, TLSTestFiles) async throws -> T
) async throws -> T {
    try await withTLSTestServer(start: { try await WebSocketTLSRelay.start(to: targetPort, files: $0) }, stop: { $0.stop() }, body)
}
