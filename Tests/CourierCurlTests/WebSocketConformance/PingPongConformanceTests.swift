#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocketTestSupport
import Foundation
import Testing

/// Autobahn|Testsuite's section 2, pings and pongs: the server's pings are answered with pongs
/// of the same payload, whatever the reader does; pongs nobody asked for are let pass; a ping
/// over 125 bytes fails the connection. And the client's own ping, through ``WebSocket/ping()``.
@Suite(.timeLimit(.minutes(5))) struct PingPongConformanceTests {
    /// Autobahn 2.1–2.4: empty, text, binary and the largest payload a control frame holds.
    static let pingPayloads: [[UInt8]] = [
        [], Array("Hello, world!".utf8), [0x00, 0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0x00, 0xFF], binaryPayload(125),
    ]

    @Test(arguments: pingPayloads) func aPingIsAnsweredWithAnIdenticalPong(payload: [UInt8]) async throws {
        let record = try await pingCase([.send([.ping(payload)])], expectedPongs: [payload])
        #expect(record.closeCode == 1000)
    }

    /// Autobahn 2.6: the 125-byte ping in one-byte writes.
    @Test func aPingDeliveredByteByByteIsAnswered() async throws {
        let payload = binaryPayload(125)
        let byteByByte = ScriptedWebSocketServer.Step.sendInPieces(WireFrame.ping(payload).bytes, size: 1, pause: .milliseconds(1))
        let record = try await pingCase([byteByByte], expectedPongs: [payload])
        #expect(record.closeCode == 1000)
    }

    /// Autobahn 2.10, 2.11: ten pings, each answered, in order; at once and byte by byte.
    @Test(arguments: [false, true]) func tenPingsAreEachAnswered(byteByByte: Bool) async throws {
        let pings = (0..<10).map { WireFrame.ping(Array("payload-\($0)".utf8)) }
        let step: ScriptedWebSocketServer.Step =
            byteByByte ? .sendInPieces(pings.bytes, size: 1, pause: .microseconds(200)) : .send(pings)
        let record = try await pingCase([step], expectedPongs: pings.map(\.payload))
        #expect(record.closeCode == 1000)
    }

    /// Autobahn 2.5: a ping of 126 bytes is a control frame over its limit (RFC 6455 §5.5).
    @Test func aPingOf126BytesFailsWith1002() async throws {
        var reading = Reading()
        let record = try await conformanceCase([.send([.ping(binaryPayload(126))])]) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.ending == .failed(.badServerResponse))
        #expect(record.pongs.isEmpty)
        #expect(record.closeCode == 1002)
    }

    /// Autobahn 2.7, 2.8: a pong nobody asked for is a heartbeat, let pass without an answer.
    @Test(arguments: [[], Array("unsolicited pong payload".utf8)] as [[UInt8]])
    func anUnsolicitedPongIsIgnored(payload: [UInt8]) async throws {
        var reading = Reading()
        let record = try await conformanceCase([
            .send([.pong(payload), .text("after the pong")]), .awaitFrames(1), .send([.close(1000)]),
        ]) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages == [.string("after the pong")])
        #expect(reading.ending == .normal)
        #expect(record.frames.map(\.opcode) == [WireFrame.text, WireFrame.close])
        #expect(record.closeCode == 1000)
    }

    /// Autobahn 2.9: an unsolicited pong, then a ping: only the ping is answered.
    @Test func anUnsolicitedPongThenAPingGetsOnePong() async throws {
        let record = try await pingCase(
            [.send([.pong(Array("unsolicited".utf8)), .ping(Array("solicited".utf8))])], expectedPongs: [Array("solicited".utf8)])
        #expect(record.closeCode == 1000)
    }

    /// Autobahn 5.6–5.8, 5.19, 5.20: pings between the fragments of a message are answered at
    /// once, and the message still comes whole; at once, frame by frame, and byte by byte.
    @Test(arguments: ["at once", "frame by frame", "byte by byte"])
    func pingsBetweenFragmentsAreAnsweredAndTheMessageStaysWhole(delivery: String) async throws {
        let frames: [WireFrame] = [
            .text("fragment1", fin: false), .ping(Array("ping 1".utf8)), .continuation("fragment2", fin: false),
            .continuation("fragment3", fin: false), .ping(Array("ping 2".utf8)), .continuation("fragment4", fin: false),
            .continuation("fragment5", fin: true),
        ]
        let steps: [ScriptedWebSocketServer.Step] =
            switch delivery {
            case "at once": [.send(frames)]
            case "frame by frame": frames.enumerated().flatMap { index, frame -> [ScriptedWebSocketServer.Step] in
                // Each ping's pong comes before the next fragment goes.
                frame.opcode == WireFrame.ping ? [.send([frame]), .awaitFrames(index == 1 ? 1 : 2)] : [.send([frame])]
            }
            default: [.sendInPieces(frames.bytes, size: 1, pause: .microseconds(200))]
            }
        var reading = Reading()
        let record = try await conformanceCase(steps + [.awaitFrames(3), .send([.close(1000)])]) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages == [.string("fragment1fragment2fragment3fragment4fragment5")])
        #expect(reading.ending == .normal)
        #expect(record.pongs == [Array("ping 1".utf8), Array("ping 2".utf8)])
        #expect(record.messages.map(\.payload) == [Array("fragment1fragment2fragment3fragment4fragment5".utf8)])
        #expect(record.closeCode == 1000)
    }

    /// A ping that comes while the client writes a large message (``largeMessageLength``) is
    /// answered between frames, never inside one: the server reads every frame whole.
    @Test func aPingWhileTheClientSendsALargeMessageIsAnsweredBetweenFrames() async throws {
        let payload = binaryPayload(largeMessageLength)
        var reading = Reading()
        let record = try await conformanceCase([
            .send([.ping(Array("during".utf8))]), .awaitFrames(2), .send([.close(1000)]),
        ]) { socket, _ in
            try await socket.send(.data(Data(payload)))
            reading = await socket.readToEnd()
        }
        #expect(reading.ending == .normal)
        #expect(record.pongs == [Array("during".utf8)])
        let sentWhole = record.messages.map(\.payload) == [payload]
        #expect(sentWhole, "the server read \(record.messages)")
        #expect(record.closeCode == 1000)
    }

    /// The client's own ping: ``WebSocket/ping()`` returns once the pong that echoes its payload
    /// is read, with the round trip.
    @Test func pingReturnsTheRoundTripOnceTheServerAnswers() async throws {
        var roundTrip: Duration?
        let record = try await conformanceCase([]) { socket, _ in
            roundTrip = try await socket.ping()
            try await socket.close()
        }
        let measured = try #require(roundTrip)
        #expect(measured > .zero)
        #expect(record.pings.count == 1)
        #expect(record.closeCode == 1000)
    }

    /// The client's pings and the server's cross: each ``WebSocket/ping()`` returns, and the
    /// server's ping is answered meanwhile.
    @Test func theClientsPingsAndTheServersPingsCross() async throws {
        var roundTrips: [Duration] = []
        let record = try await conformanceCase([.send([.ping(Array("server ping".utf8))])]) { socket, _ in
            for _ in 0..<3 { roundTrips.append(try await socket.ping()) }
            try await socket.close()
        }
        #expect(roundTrips.count == 3)
        #expect(record.pings.count == 3)
        #expect(record.pongs == [Array("server ping".utf8)])
        #expect(record.closeCode == 1000)
    }

    // MARK: Helpers

    /// Plays `steps`, waits for a pong per expected one, then closes with 1000: the pongs must
    /// be exactly those, and the reader sees no message.
    private func pingCase(
        _ steps: [ScriptedWebSocketServer.Step], expectedPongs: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ScriptedClientRecord {
        var reading = Reading()
        let record = try await conformanceCase(steps + [.awaitFrames(expectedPongs.count), .send([.close(1000)])]) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages.isEmpty, sourceLocation: sourceLocation)
        #expect(reading.ending == .normal, sourceLocation: sourceLocation)
        #expect(record.pongs == expectedPongs, sourceLocation: sourceLocation)
        #expect(record.frames.count == expectedPongs.count + 1, "\(record.frames)", sourceLocation: sourceLocation)
        return record
    }
}
#endif
