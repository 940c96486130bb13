#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocket
import CourierWebSocketTestSupport
import Foundation
import Testing

/// Autobahn|Testsuite's section 1, framing: text and binary messages at every length form
/// (7-bit, 16-bit, 64-bit) and their edges, up to the 16 MiB message limit, whole and in
/// pieces. The client echoes each message; the server compares the echo byte for byte.
@Suite(.timeLimit(.minutes(5))) struct FramingConformanceTests {
    static let lengths = [0, 125, 126, 127, 65535, 65536] + (runsLargeCases ? [16 << 20] : [])

    @Test(arguments: lengths) func textIsReadAndEchoedWhole(length: Int) async throws {
        try await echoes(WireFrame.text, length: length)
    }

    @Test(arguments: lengths) func binaryIsReadAndEchoedWhole(length: Int) async throws {
        try await echoes(WireFrame.binary, length: length)
    }

    /// One byte past the default limit fails from the frame's header (Autobahn 9.x's largest
    /// cases are this size): the client closes with 1009 before reading the payload.
    @Test(
        .enabled(if: runsLargeCases, "16 MiB costs minutes under a sanitizer; LimitsConformanceTests checks the limit at 1 KiB"),
        arguments: [WireFrame.text, WireFrame.binary])
    func oneBytePastSixteenMebibytesFailsWith1009(opcode: UInt8) async throws {
        let frame = WireFrame(opcode: opcode, payload: asciiPayload((16 << 20) + 1))
        var reading = Reading()
        let record = try await conformanceCase([.send([frame])]) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages.isEmpty)
        #expect(reading.ending == .failed(.dataLengthExceedsMaximum))
        #expect(record.closeCode == 1009)
        #expect(record.messages.isEmpty)
    }

    /// Each frame reaches the client in one-byte writes with a pause after each, so that it
    /// reads every header field and the payload split at every offset (Autobahn 1.1.7, 1.2.7).
    @Test(arguments: [0, 1, 125, 126, 127, 300]) func aFrameDeliveredByteByByteIsReadWhole(length: Int) async throws {
        let text = WireFrame.text(bytes: asciiPayload(length))
        let binary = WireFrame.binary(binaryPayload(length))
        var reading = Reading()
        let record = try await conformanceCase([
            .sendInPieces([text, binary].bytes, size: 1, pause: .milliseconds(1)), .awaitFrames(2), .send([.close(1000)]),
        ]) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages == [.string(String(decoding: text.payload, as: UTF8.self)), .data(Data(binary.payload))])
        #expect(reading.ending == .normal)
        #expect(record.messages.map(\.payload) == [text.payload, binary.payload])
        #expect(record.closeCode == 1000)
    }

    /// Long messages in 997-byte writes, a size that lines up with nothing (Autobahn 1.1.8,
    /// 1.2.8), and 1 MiB in 64-byte writes (Autobahn 9.5.1, 9.6.1).
    @Test(arguments: [(65535, 997), (65536, 997), (1 << 20, 997)] + (runsLargeCases ? [(1 << 20, 64)] : []))
    func aLongFrameDeliveredInSmallPiecesIsReadWhole(length: Int, pieceSize: Int) async throws {
        let text = WireFrame.text(bytes: asciiPayload(length))
        let binary = WireFrame.binary(binaryPayload(length))
        var reading = Reading()
        let record = try await conformanceCase([
            .sendInPieces([text, binary].bytes, size: pieceSize), .awaitFrames(2), .send([.close(1000)]),
        ]) { socket, _ in
            reading = await socket.readToEnd()
        }
        let readWhole = reading.messages.map(\.bytes) == [text.payload, binary.payload]
        let echoedWhole = record.messages.map(\.payload) == [text.payload, binary.payload]
        #expect(readWhole, "read \(reading.messages.map(\.byteCount)) bytes, not 2 × \(length)")
        #expect(reading.ending == .normal)
        #expect(echoedWhole, "echoed \(record.messages), not 2 × \(length) bytes")
        #expect(record.closeCode == 1000)
    }

    /// Frames in the same write as the 101, right behind its head, are the connection's first:
    /// none is lost with the bytes read for the handshake.
    @Test func framesInTheSameWriteAsTheHandshakeAreRead() async throws {
        let frames: [WireFrame] = [.text("first"), .binary(binaryPayload(100_000)), .ping(Array("early".utf8))]
        var reading = Reading()
        let record = try await conformanceCase([.awaitFrames(3), .send([.close(1000)])], framesWithHandshake: frames) { socket, _ in
            reading = await socket.readToEnd()
        }
        let readWhole = reading.messages == [.string("first"), .data(Data(binaryPayload(100_000)))]
        #expect(readWhole, "read \(reading.messages.map(\.byteCount)) bytes")
        #expect(reading.ending == .normal)
        #expect(record.pongs == [Array("early".utf8)])
        #expect(record.messages.map(\.payload) == [Array("first".utf8), binaryPayload(100_000)])
        #expect(record.closeCode == 1000)
    }

    /// Many small messages in one write: the client reads each out of the same bytes.
    @Test func manyMessagesInOneWriteAreReadInOrder() async throws {
        let frames = (0..<100).map { WireFrame.text("message \($0)") }
        var reading = Reading()
        let record = try await conformanceCase([.send(frames), .awaitFrames(100), .send([.close(1000)])]) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages == (0..<100).map { .string("message \($0)") })
        #expect(record.messages.map(\.payload) == frames.map(\.payload))
        #expect(record.closeCode == 1000)
    }

    // MARK: Helpers

    private func echoes(_ opcode: UInt8, length: Int) async throws {
        let payload = opcode == WireFrame.text ? asciiPayload(length) : binaryPayload(length)
        var reading = Reading()
        let record = try await conformanceCase([
            .send([WireFrame(opcode: opcode, payload: payload)]), .awaitFrames(1), .send([.close(1000)]),
        ]) { socket, _ in
            reading = await socket.readToEnd()
        }
        let expected: WebSocket.Message =
            opcode == WireFrame.text ? .string(String(decoding: payload, as: UTF8.self)) : .data(Data(payload))
        // Compared outside the expectations, which would print 16 MiB on a failure.
        let readWhole = reading.messages == [expected]
        let echoedWhole = record.messages.first?.payload == payload
        #expect(readWhole, "read \(reading.messages.map(\.byteCount)) bytes, not the \(length) sent")
        #expect(reading.ending == .normal)
        #expect(record.messages.count == 1)
        #expect(record.messages.first?.opcode == opcode)
        #expect(echoedWhole, "the echo of \(record.messages.first?.payload.count ?? 0) bytes differs from the \(length) sent")
        #expect(record.closeCode == 1000)
    }
}
#endif
