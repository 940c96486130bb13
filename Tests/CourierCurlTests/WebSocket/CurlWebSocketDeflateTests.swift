#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestSupport
import CourierWebSocket
import Foundation
import Testing
@testable import CourierCurl

/// permessage-deflate over a real socket against another implementation: Python's websockets on
/// 127.0.0.1, echoing what it inflated and compressing what it sends back, and telling what it
/// agreed and how the client's frames came.
@Suite(
    .timeLimit(.minutes(5)),
    .enabled("needs Python's websockets 17 in .build-python/: run scripts/websockets (scripts/setup runs it)") {
        await WebSocketDeflateTestServer.isAvailable()
    }
)
struct CurlWebSocketDeflateTests {
    @Test func echoesCompressedTextAndBinary() async throws {
        try await withConnection { connection, _ in
            #expect(connection.deflate == WebSocketDeflateParameters())
            try await connection.send(.text("hello, κόσμε"))
            #expect(try await connection.receive() == .message(.text("hello, κόσμε")))
            try await connection.send(.binary([0, 1, 2, 255]))
            #expect(try await connection.receive() == .message(.binary([0, 1, 2, 255])))
            try await connection.send(.text(""))
            #expect(try await connection.receive() == .message(.text("")))
            let stats = try await serverStats(connection)
            #expect(stats.extensions == "permessage-deflate")
            #expect(stats.frames.map(\.compressed) == [true, true, true])
        }
    }

    /// Messages of 100 KiB, three times the window, and one that repeats the end of the one
    /// before, which with the window kept costs the client a few references back. Random
    /// letters, so that zlib finds the repeat rather than the many short ones a small
    /// vocabulary offers.
    @Test func messagesLargerThanTheWindowKeepTheWindowBetweenThem() async throws {
        var generator = SeededGenerator(seed: 1)
        let first = (0..<100_000).map { _ in UInt8.random(in: 0x61...0x7A, using: &generator) }
        let second = (0..<100_000).map { _ in UInt8.random(in: 0x61...0x7A, using: &generator) }
        let again = Array(second.suffix(20_000))
        try await withConnection { connection, _ in
            for message in [first, second, again] {
                try await connection.send(.binary(message))
                #expect(try await connection.receive() == .message(.binary(message)))
            }
            let sizes = try await serverStats(connection).frames.map(\.bytes)
            var alone = WebSocketDeflater()
            let standalone = try alone.compress(again).count
            #expect(sizes.count == 3)
            #expect(sizes.prefix(2).allSatisfy { $0 < 100_000 * 3 / 4 }, "\(sizes)")
            #expect((sizes.last ?? .max) * 4 < standalone, "\(sizes), \(standalone) bytes alone")
        }
    }

    @Test func theServerMayRequireClientNoContextTakeover() async throws {
        let message = sentences(byteCount: 5000, seed: 2)
        try await withConnection(server: .init(clientNoContextTakeover: true)) { connection, _ in
            #expect(connection.deflate == WebSocketDeflateParameters(clientNoContextTakeover: true))
            for _ in 0..<3 {
                try await connection.send(.binary(message))
                #expect(try await connection.receive() == .message(.binary(message)))
            }
            let stats = try await serverStats(connection)
            #expect(stats.extensions == "permessage-deflate; client_no_context_takeover")
            // Each the same size: none refers back into the one before.
            #expect(Set(stats.frames.map(\.bytes)).count == 1, "\(stats.frames)")
        }
    }

    @Test func theClientMayOfferClientNoContextTakeover() async throws {
        let message = sentences(byteCount: 5000, seed: 3)
        try await withConnection(offering: WebSocketDeflateSettings(clientNoContextTakeover: true)) { connection, _ in
            #expect(connection.deflate?.clientNoContextTakeover == true)
            for _ in 0..<3 {
                try await connection.send(.binary(message))
                #expect(try await connection.receive() == .message(.binary(message)))
            }
            #expect(Set(try await serverStats(connection).frames.map(\.bytes)).count == 1)
        }
    }

    @Test func theClientMayAskForServerNoContextTakeover() async throws {
        let message = sentences(byteCount: 50_000, seed: 4)
        try await withConnection(offering: WebSocketDeflateSettings(serverNoContextTakeover: true)) { connection, _ in
            #expect(connection.deflate == WebSocketDeflateParameters(serverNoContextTakeover: true))
            for _ in 0..<3 {
                try await connection.send(.text(String(decoding: message, as: UTF8.self)))
                #expect(try await connection.receive() == .message(.text(String(decoding: message, as: UTF8.self))))
            }
            #expect(try await serverStats(connection).extensions == "permessage-deflate; server_no_context_takeover")
        }
    }

    @Test func theServerMayKeepNoContextUnasked() async throws {
        let message = sentences(byteCount: 50_000, seed: 5)
        try await withConnection(server: .init(serverNoContextTakeover: true)) { connection, _ in
            #expect(connection.deflate == WebSocketDeflateParameters(serverNoContextTakeover: true))
            for _ in 0..<3 {
                try await connection.send(.binary(message))
                #expect(try await connection.receive() == .message(.binary(message)))
            }
        }
    }

    @Test func smallerWindowsEachWay() async throws {
        var generator = SeededGenerator(seed: 6)
        let messages = (0..<3).map { _ in sentences(byteCount: 60_000, using: &generator) }
        let offer = WebSocketDeflateSettings(serverMaxWindowBits: 10)
        try await withConnection(server: .init(clientMaxWindowBits: 9), offering: offer) { connection, _ in
            #expect(connection.deflate == WebSocketDeflateParameters(clientMaxWindowBits: 9, serverMaxWindowBits: 10))
            for message in messages {
                try await connection.send(.binary(message))
                #expect(try await connection.receive() == .message(.binary(message)))
            }
            let stats = try await serverStats(connection)
            #expect(stats.extensions == "permessage-deflate; server_max_window_bits=10; client_max_window_bits=9")
        }
    }

    /// zlib has no 8-bit window; the client compresses with 9, which refers back no further
    /// than 250 bytes, and the server inflates with 256 bytes. Each block goes twice, in two
    /// messages, so that the second would refer 200 to 300 bytes back into the first, across the
    /// server's inflate calls, where its window is all it has: a longer reference would fail the
    /// connection.
    @Test func aClientWindowOfEightBitsIsReadByTheServer() async throws {
        var generator = SeededGenerator(seed: 8)
        let blocks = stride(from: 200, through: 300, by: 25).map { distance in
            (0..<distance).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        try await withConnection(server: .init(clientMaxWindowBits: 8)) { connection, _ in
            #expect(connection.deflate == WebSocketDeflateParameters(clientMaxWindowBits: 8))
            for block in blocks {
                for _ in 0..<2 {
                    try await connection.send(.binary(block))
                    #expect(try await connection.receive() == .message(.binary(block)))
                }
            }
            let sizes = try await serverStats(connection).frames.map(\.bytes)
            // A block 200 bytes back is within reach: the second time it costs a reference.
            #expect(sizes.count == 10 && sizes[1] < 20, "\(sizes)")
        }
    }

    @Test func aServerThatDeclinesGetsMessagesUncompressed() async throws {
        try await withConnection(server: .init(declinesCompression: true)) { connection, _ in
            #expect(connection.deflate == nil)
            try await connection.send(.text("plain"))
            #expect(try await connection.receive() == .message(.text("plain")))
            #expect(try await serverStats(connection).extensions == nil)
        }
    }

    /// websockets declines an offer of an 8-bit server window, which its zlib cannot compress
    /// with: the connection goes on uncompressed.
    @Test func anOfferTheServerCannotMeetIsDeclined() async throws {
        try await withConnection(offering: WebSocketDeflateSettings(serverMaxWindowBits: 8)) { connection, _ in
            #expect(connection.deflate == nil)
            try await connection.send(.binary([1, 2, 3]))
            #expect(try await connection.receive() == .message(.binary([1, 2, 3])))
        }
    }

    @Test func withoutAnOfferNothingIsCompressed() async throws {
        try await withConnection(offering: nil) { connection, _ in
            #expect(connection.deflate == nil)
            try await connection.send(.text("plain"))
            #expect(try await connection.receive() == .message(.text("plain")))
            #expect(try await serverStats(connection).extensions == nil)
        }
    }

    /// 16 MiB of zeros come as 16 KiB: the client inflates up to its 1 MiB limit, stops, and
    /// closes with 1009, which the server received.
    @Test func aBombFromTheServerClosesWith1009() async throws {
        let limit = 1 << 20
        try await withConnection(maximumMessageLength: limit) { connection, server in
            try await connection.send(.text("zeros:\(16 << 20)"))
            await #expect(throws: WebSocketError.compressedMessageTooLarge(limit: limit)) { try await connection.receive() }
            #expect(try await closeCodes(at: server).first == 1009)
        }
    }

    // MARK: Through CurlTransport's WebSocket

    @Test func theTransportOffersCompressionWhenTheOptionsAskForIt() async throws {
        try await withWebSocketDeflateServer { server in
            let transport = try CurlTransport()
            let options = WebSocket.Options(compression: WebSocket.Compression(serverContextTakeover: false))
            let socket = try await transport.webSocket(for: URLRequest(url: server.url("/echo")), options: options)
            #expect(socket.head.headerFields["Sec-WebSocket-Extensions"] == "permessage-deflate; server_no_context_takeover")
            var messages = socket.messages.makeAsyncIterator()
            for _ in 0..<2 {
                try await socket.send(.string("hello, κόσμε"))
                #expect(try await messages.next() == .string("hello, κόσμε"))
            }
            try await socket.send(.string("stats?"))
            guard case .string(let json)? = try await messages.next() else { throw StatsError() }
            let stats = try JSONDecoder().decode(ServerStats.self, from: Data(json.utf8))
            #expect(stats.frames.map(\.compressed) == [true, true])
            try await socket.close()
            await transport.shutdown()
        }
    }

    /// What inflates past ``WebSocket/Options/maximumMessageBytes`` is too large, as a message
    /// that arrives too large is.
    @Test func theTransportFailsAMessageThatInflatesPastTheLimit() async throws {
        try await withWebSocketDeflateServer { server in
            let transport = try CurlTransport()
            let options = WebSocket.Options(maximumMessageBytes: 1 << 20, compression: .permessageDeflate)
            let socket = try await transport.webSocket(for: URLRequest(url: server.url("/echo")), options: options)
            try await socket.send(.string("zeros:\(16 << 20)"))
            var messages = socket.messages.makeAsyncIterator()
            let error = await #expect(throws: URLError.self) { try await messages.next() }
            #expect(error?.code == .dataLengthExceedsMaximum)
            #expect(try await closeCodes(at: server).first == 1009)
            await transport.shutdown()
        }
    }

    @Test func aWindowTheOptionsCannotHaveIsRefusedBeforeAnythingIsSent() async throws {
        let transport = try CurlTransport()
        let options = WebSocket.Options(compression: WebSocket.Compression(serverMaxWindowBits: 16))
        let error = await #expect(throws: RequestError.self) {
            try await transport.webSocket(for: URLRequest(url: URL(string: "ws://127.0.0.1:9/")!), options: options)
        }
        #expect(error == .invalidHeader(
            name: "Sec-WebSocket-Extensions", reason: "permessage-deflate's server_max_window_bits cannot be 16: a window is 8 to 15 bits"))
        await transport.shutdown()
    }

    // MARK: Helpers

    private struct ServerStats: Decodable {
        struct Frame: Decodable {
            var compressed: Bool
            var bytes: Int
        }

        var extensions: String?
        var frames: [Frame]
    }

    /// What the server agreed and the client's data frames it read so far.
    private func serverStats(_ connection: CurlWebSocketConnection) async throws -> ServerStats {
        try await connection.send(.text("stats?"))
        guard case .message(.text(let json)) = try await connection.receive() else { throw StatsError() }
        return try JSONDecoder().decode(ServerStats.self, from: Data(json.utf8))
    }

    private struct StatsError: Error {}

    /// The close codes of the server's connections that ended, asked on a connection of its
    /// own once there is one: the server records a code once its side of the close is done.
    private func closeCodes(at server: WebSocketDeflateTestServer) async throws -> [Int?] {
        let loop = try CurlEventLoop(configuration: CurlTransport.Configuration())
        do {
            let connection = try await CurlWebSocketConnection.connect(
                to: server.url(), configuration: CurlTransport.Configuration(), loop: loop)
            while true {
                try await connection.send(.text("closes?"))
                guard case .message(.text(let json)) = try await connection.receive() else { throw StatsError() }
                let codes = try JSONDecoder().decode([Int?].self, from: Data(json.utf8))
                if !codes.isEmpty {
                    loop.shutDown()
                    await loop.awaitTermination()
                    return codes
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        } catch {
            loop.shutDown()
            await loop.awaitTermination()
            throw error
        }
    }

    /// Runs `body` on a connection offering `settings` to a new server with `options`, on a
    /// loop of its own; the loop and the server are shut down whatever happens.
    private func withConnection(
        server options: WebSocketDeflateTestServer.Options = .init(),
        offering settings: WebSocketDeflateSettings? = WebSocketDeflateSettings(),
        maximumMessageLength: Int = WebSocketConnectionState.defaultMaximumMessageLength,
        _ body: (CurlWebSocketConnection, WebSocketDeflateTestServer) async throws -> Void
    ) async throws {
        try await withWebSocketDeflateServer(options) { server in
            let loop = try CurlEventLoop(configuration: CurlTransport.Configuration())
            do {
                let connection = try await CurlWebSocketConnection.connect(
                    to: server.url("/echo"), deflate: settings, configuration: CurlTransport.Configuration(), loop: loop,
                    maximumMessageLength: maximumMessageLength)
                try await body(connection, server)
            } catch {
                loop.shutDown()
                await loop.awaitTermination()
                throw error
            }
            loop.shutDown()
            await loop.awaitTermination()
        }
    }
}

private func sentences(byteCount: Int, seed: UInt64) -> [UInt8] {
    var generator = SeededGenerator(seed: seed)
    return sentences(byteCount: byteCount, using: &generator)
}
#endif
