import Foundation

/// A WebSocket echo server on 127.0.0.1 that speaks permessage-deflate (RFC 7692): Python's
/// websockets 17, installed by `scripts/websockets` into `.build-python/` of the clone (the venv
/// `scripts/hypercorn` uses too), for the tests of the curl engine's compression against another
/// implementation. The server answers `ws://127.0.0.1:<port>/` on any path.
///
/// It echoes every message as it came (text as text, bytes as bytes), compressed when the
/// extension was agreed, except three text requests:
/// - `stats?`: JSON `{"extensions": the server's Sec-WebSocket-Extensions or null, "frames":
///   [{"compressed": RSV1, "bytes": payload bytes as received}, ...]}`, the client's data frames
///   before this one (none when the server declined compression);
/// - `closes?`: JSON, the close codes of the connections that ended so far, in order (null for
///   one that ended without a close frame);
/// - `zeros:N`: N zero bytes as one binary message, which compress about a thousandfold.
///
/// ``isAvailable()`` says whether the venv has websockets; the tests that need it skip without.
/// The process exits when its stdin closes, so a crashed test leaves no server behind.
package final class WebSocketDeflateTestServer: Sendable {
    /// How the server negotiates permessage-deflate: what websockets'
    /// `ServerPerMessageDeflateFactory` is given, or no compression at all.
    package struct Options: Sendable {
        /// Answer without the extension: every message goes uncompressed.
        package var declinesCompression = false
        /// Compress each message with an empty window, offered or not.
        package var serverNoContextTakeover = false
        /// Require the client to compress each message with an empty window.
        package var clientNoContextTakeover = false
        /// The server's window, at most; websockets refuses 8.
        package var serverMaxWindowBits: Int?
        /// The client's window, at most, when the client's offer lets the server choose it.
        package var clientMaxWindowBits: Int?

        package init(
            declinesCompression: Bool = false, serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
            serverMaxWindowBits: Int? = nil, clientMaxWindowBits: Int? = nil
        ) {
            self.declinesCompression = declinesCompression
            self.serverNoContextTakeover = serverNoContextTakeover
            self.clientNoContextTakeover = clientNoContextTakeover
            self.serverMaxWindowBits = serverMaxWindowBits
            self.clientMaxWindowBits = clientMaxWindowBits
        }

        var arguments: [String] {
            var arguments: [String] = []
            if declinesCompression { arguments.append("--decline") }
            if serverNoContextTakeover { arguments.append("--server-no-context-takeover") }
            if clientNoContextTakeover { arguments.append("--client-no-context-takeover") }
            if let serverMaxWindowBits { arguments += ["--server-max-window-bits", String(serverMaxWindowBits)] }
            if let clientMaxWindowBits { arguments += ["--client-max-window-bits", String(clientMaxWindowBits)] }
            return arguments
        }
    }

    private let process: ScriptedServerProcess
    private let directory: URL
    package var port: Int { process.port }

    /// `ws://127.0.0.1:<port><path>`.
    package func url(_ path: String = "/") -> URL {
        URL(string: "ws://127.0.0.1:\(port)\(path)")!
    }

    private init(process: ScriptedServerProcess, directory: URL) {
        self.process = process
        self.directory = directory
    }

    /// The Python of the venv `scripts/websockets` fills: `COURIER_WEBSOCKETS_PYTHON`, or
    /// `.build-python/bin/python3` in the clone this file is in.
    package static var python: String {
        let clone = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return ProcessInfo.processInfo.environment["COURIER_WEBSOCKETS_PYTHON"]
            ?? clone.appendingPathComponent(".build-python/bin/python3").path
    }

    /// Whether ``python`` runs and imports websockets 17; checked off the cooperative pool,
    /// since it waits for a child process.
    package static func isAvailable() async -> Bool {
        let python = python
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let available = try? await offThePool {
            let child = try SpawnedProcess(
                executable: python, arguments: ["-c", "import sys, websockets; sys.exit(websockets.__version__.split('.')[0] != '17')"])
            child.waitUntilExit()
            return child.terminationReason == .exit && child.terminationStatus == 0
        }
        return available ?? false
    }

    /// Starts the server and waits (`TestRun.hangLimit` at most) for its port.
    package static func start(_ options: Options = Options()) async throws -> WebSocketDeflateTestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-websockets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let process = try await ScriptedServerProcess.start(
                "permessage-deflate test server", name: "websocket_deflate_server", script: script, interpreter: python,
                arguments: options.arguments, directory: directory)
            return WebSocketDeflateTestServer(process: process, directory: directory)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Terminates the process, waits for it to exit, and removes its directory.
    package func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The server, run as `python3 -u websocket_deflate_server.py [OPTIONS]`; prints its port
    /// once it accepts connections, then serves.
    static let script = #"""
    import asyncio, json, os, sys, threading

    from websockets.asyncio.server import serve
    from websockets.exceptions import ConnectionClosed
    from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
    from websockets.frames import Opcode

    arguments = sys.argv[1:]


    def number(name):
        return int(arguments[arguments.index(name) + 1]) if name in arguments else None


    class RecordingDeflate(PerMessageDeflate):
        # The client's data frames as they came, compressed or not, for the stats? request.
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.frames = []

        def decode(self, frame, *, max_size=None):
            if frame.opcode in (Opcode.TEXT, Opcode.BINARY):
                self.frames.append({"compressed": frame.rsv1, "bytes": len(frame.data)})
            return super().decode(frame, max_size=max_size)


    class RecordingFactory(ServerPerMessageDeflateFactory):
        def process_request_params(self, params, accepted_extensions):
            response, agreed = super().process_request_params(params, accepted_extensions)
            return response, RecordingDeflate(
                agreed.remote_no_context_takeover, agreed.local_no_context_takeover,
                agreed.remote_max_window_bits, agreed.local_max_window_bits, agreed.compress_settings,
            )


    closes = []


    async def handler(connection):
        try:
            async for message in connection:
                if message == "stats?":
                    recording = next((e for e in connection.protocol.extensions if isinstance(e, RecordingDeflate)), None)
                    await connection.send(json.dumps({
                        "extensions": connection.response.headers.get("Sec-WebSocket-Extensions"),
                        "frames": recording.frames[:-1] if recording else [],
                    }))
                elif message == "closes?":
                    await connection.send(json.dumps(closes))
                elif isinstance(message, str) and message.startswith("zeros:"):
                    await connection.send(bytes(int(message[len("zeros:"):])))
                else:
                    await connection.send(message)
        except ConnectionClosed:
            pass
        finally:
            closes.append(connection.close_code)


    def exit_when_stdin_closes():
        sys.stdin.buffer.read()
        os._exit(0)


    async def main():
        extensions = [] if "--decline" in arguments else [RecordingFactory(
            server_no_context_takeover="--server-no-context-takeover" in arguments,
            client_no_context_takeover="--client-no-context-takeover" in arguments,
            server_max_window_bits=number("--server-max-window-bits"),
            client_max_window_bits=number("--client-max-window-bits"),
        )]
        # compression=None leaves the extensions as given; max_size=None lets the tests send
        # messages of any size, on loopback. No handshake timeout and no pings of the server's
        # own: on a machine busy with a sanitizer run, a handshake took past websockets' 10 s
        # and the server hung up; the tests' own time limits bound the wait instead.
        async with serve(handler, "127.0.0.1", 0, extensions=extensions, compression=None, max_size=None,
                         open_timeout=None, ping_interval=None) as server:
            print(server.sockets[0].getsockname()[1], flush=True)
            await asyncio.get_running_loop().create_future()


    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    asyncio.run(main())
    """#
}

/// Runs `body` against a fresh permessage-deflate test server; stops the server afterwards
/// whatever happens.
package func withWebSocketDeflateServer<T>(
    _ options: WebSocketDeflateTestServer.Options = .init(), _ body: (WebSocketDeflateTestServer) async throws -> T
) async throws -> T {
    let server = try await WebSocketDeflateTestServer.start(options)
    do {
        let result = try await body(server)
        try? await offThePool { server.stop() }
        return result
    } catch {
        try? await offThePool { server.stop() }
        throw error
    }
}
