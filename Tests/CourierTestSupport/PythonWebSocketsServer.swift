import Foundation

/// An echo server on 127.0.0.1 written with Python's `websockets` (17.x), a WebSocket
/// implementation nobody here wrote, over ws or, with a certificate, wss: it sends every
/// message back as it came, answers pings (the library does), and echoes the close; it agrees to
/// permessage-deflate when the client offers it.
///
/// It runs in the venv `scripts/websockets` fills, as ``WebSocketDeflateTestServer`` does, and
/// its ``WebSocketDeflateTestServer/isAvailable()`` says whether it can. The process exits when
/// its stdin closes, so a crashed test leaves no server behind.
package final class PythonWebSocketsServer: Sendable {
    private let process: ScriptedServerProcess
    package var port: Int { process.port }

    private init(process: ScriptedServerProcess) {
        self.process = process
    }

    /// `ws://127.0.0.1:<port>/echo`, or `wss://` when the server has a certificate.
    package func url(secure: Bool) -> URL {
        URL(string: "\(secure ? "wss" : "ws")://127.0.0.1:\(port)/echo")!
    }

    /// Starts the server, over TLS with `certificate` and `key` when given, and waits
    /// (`TestRun.hangLimit` at most) for its port.
    package static func start(certificate: String? = nil, key: String? = nil, directory: URL) async throws -> PythonWebSocketsServer {
        let arguments = [certificate, key].compactMap { $0 }
        return PythonWebSocketsServer(process: try await ScriptedServerProcess.start(
            "websockets echo server", name: "websockets_echo_server", script: script, interpreter: WebSocketDeflateTestServer.python,
            arguments: arguments, directory: directory))
    }

    /// Terminates the process and waits for it to exit.
    package func stop() {
        process.stop()
    }

    /// The server, run as `python3 -u websockets_echo_server.py [CERT KEY]`; prints its port
    /// once it listens, then serves.
    static let script = #"""
    import asyncio, os, ssl, sys, threading

    from websockets.asyncio.server import serve


    async def echo(connection):
        async for message in connection:
            await connection.send(message)


    def exit_when_stdin_closes():
        sys.stdin.buffer.read()
        os._exit(0)


    async def main():
        context = None
        if len(sys.argv) > 2:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
        # Messages up to the client's default limit, 16 MiB; permessage-deflate when the client
        # offers it. No handshake timeout and no pings of the server's own, which a machine busy
        # with a sanitizer run can outlast; the tests' own time limits bound the wait.
        async with serve(echo, "127.0.0.1", 0, ssl=context, max_size=16 * 1024 * 1024,
                         open_timeout=None, ping_interval=None) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            print(port, flush=True)
            await server.serve_forever()


    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    asyncio.run(main())
    """#
}
