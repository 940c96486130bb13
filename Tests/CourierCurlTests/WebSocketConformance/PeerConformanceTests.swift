#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierProxyTestSupport
import CourierTestSupport
import CourierWebSocket
import Foundation
import Testing

/// The public WebSocket over CurlTransport against a peer nobody here wrote: Python's
/// `websockets` 17 as an echo server, over ws, over wss with a self-signed certificate the
/// transport is told to trust, and through the test HTTP proxy's CONNECT tunnel. All on
/// loopback.
@Suite(
    .timeLimit(.minutes(5)),
    .enabled("needs Python's websockets 17 in .build-python/: run scripts/websockets (scripts/setup runs it)") {
        await WebSocketDeflateTestServer.isAvailable()
    }
)
struct PeerConformanceTests {
    /// What each test sends and expects back: text with multi-byte characters, every byte
    /// value, empty messages, each length form, and a message of 1 MiB.
    static let messages: [WebSocket.Message] = [
        .string("hello"), .string("κόσμε, 𝄞, 中文"), .string(""), .data(Data()), .data(Data(0...255)),
        .string(String(decoding: asciiPayload(125), as: UTF8.self)), .data(Data(binaryPayload(126))),
        .data(Data(binaryPayload(65536))), .string(String(decoding: asciiPayload(1 << 20), as: UTF8.self)),
    ]

    @Test(arguments: [false, true]) func echoesThroughWebsockets(secure: Bool) async throws {
        try await withPeer(secure: secure) { url, configuration in
            try await echoes(at: url, configuration: configuration)
        }
    }

    @Test(arguments: [false, true]) func echoesThroughAProxysConnectTunnel(secure: Bool) async throws {
        let proxy = try await TestProxy.start(.http)
        var port = 0
        do {
            try await withPeer(secure: secure) { url, configuration in
                port = url.port ?? 0
                var configuration = configuration
                configuration.proxy = .url(proxy.url())
                try await echoes(at: url, configuration: configuration)
            }
        } catch {
            try await proxy.shutdown()
            throw error
        }
        let tunnel = ProxyRecord(command: .connect, host: "127.0.0.1", port: port, target: nil, user: nil, accepted: true)
        #expect(proxy.records == [tunnel])
        try await proxy.shutdown()
    }

    /// permessage-deflate with the peer, over TLS and through the tunnel: every message comes
    /// back whole, and the peer agreed to compress.
    @Test func echoesCompressedOverTLSThroughAProxysTunnel() async throws {
        let proxy = try await TestProxy.start(.http)
        do {
            try await withPeer(secure: true) { url, configuration in
                var configuration = configuration
                configuration.proxy = .url(proxy.url())
                try await echoes(at: url, configuration: configuration, compression: .permessageDeflate)
            }
        } catch {
            try await proxy.shutdown()
            throw error
        }
        #expect(proxy.records.map(\.command) == [.connect])
        try await proxy.shutdown()
    }

    /// Many messages sent before any is read: the peer's echoes wait for the reader, and come
    /// in order.
    @Test func manyMessagesSentBeforeAnyIsReadComeBackInOrder() async throws {
        try await withPeer(secure: false) { url, configuration in
            let transport = try CurlTransport(configuration: configuration)
            let socket = try await transport.webSocket(for: URLRequest(url: url), options: .patient())
            let sent = (0..<200).map { WebSocket.Message.string("message \($0)") }
            for message in sent { try await socket.send(message) }
            var received: [WebSocket.Message] = []
            for try await message in socket.messages {
                received.append(message)
                if received.count == sent.count { break }
            }
            try await socket.close()
            #expect(received == sent)
            #expect(socket.closeCode == .normalClosure)
            await transport.shutdown()
        }
    }

    // MARK: Helpers

    /// Sends each of ``messages``, reads its echo, pings, then closes with a reason the peer
    /// echoes.
    private func echoes(
        at url: URL, configuration: CurlTransport.Configuration, compression: WebSocket.Compression? = nil
    ) async throws {
        let transport = try CurlTransport(configuration: configuration)
        do {
            let socket = try await transport.webSocket(for: URLRequest(url: url), options: .patient(compression: compression))
            let extensions = socket.head.value(forHTTPHeaderField: "Sec-WebSocket-Extensions")
            #expect((extensions?.hasPrefix("permessage-deflate") ?? false) == (compression != nil), "\(extensions ?? "none")")
            var replies = socket.messages.makeAsyncIterator()
            for message in Self.messages {
                try await socket.send(message)
                let reply = try await replies.next()
                let same = reply == message
                #expect(same, "sent \(message.byteCount) bytes, got back \(reply?.byteCount ?? 0)")
            }
            let roundTrip = try await socket.ping()
            #expect(roundTrip > .zero)
            try await socket.close(.normalClosure, reason: "done")
            #expect(try await replies.next() == nil)
            #expect(socket.closeCode == .normalClosure)
            #expect(socket.closeReason == "done")
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
    }

    /// Runs `body` against a fresh peer, over TLS with a self-signed certificate when `secure`,
    /// with a configuration that trusts it; the server and the certificate go afterwards.
    private func withPeer(
        secure: Bool, _ body: (URL, CurlTransport.Configuration) async throws -> Void
    ) async throws {
        let files = try await offThePool { try TLSTestFiles.make() }
        defer { files.remove() }
        let (certificate, key) = files.paths(of: .selfSigned)
        let server =
            secure
            ? try await PythonWebSocketsServer.start(certificate: certificate, key: key, directory: files.directory)
            : try await PythonWebSocketsServer.start(directory: files.directory)
        var configuration = CurlTransport.Configuration()
        // The self-signed certificate is its own anchor: trusted because it is named, not
        // because verification is off.
        if secure { configuration.caBundlePath = certificate }
        do {
            try await body(server.url(secure: secure), configuration)
        } catch {
            try? await offThePool { server.stop() }
            throw error
        }
        try? await offThePool { server.stop() }
    }
}
#endif
