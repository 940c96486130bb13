#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocketTestSupport
import Foundation
import Testing

/// Autobahn|Testsuite's sections 3 and 4, reserved bits and reserved opcodes: with no extension
/// negotiated, a frame with RSV1–RSV3 set or an opcode RFC 6455 reserves fails the connection
/// with 1002, the messages before it are still read, and nothing after it is answered.
@Suite(.timeLimit(.minutes(5))) struct ReservedBitsConformanceTests {
    /// Autobahn 3.1–3.7: each combination of the three bits, on the frame kind its case uses.
    static let reservedBitCases: [(rsv: UInt8, frame: WireFrame)] = [
        (1, .text("Hello, world!")), (2, .text("Hello, world!")), (3, .text("Hello, world!")), (4, .text("Hello, world!")),
        (5, .binary(binaryPayload(8))), (6, .ping(Array("Hello, world!".utf8))), (7, .close(1000)),
    ]

    @Test(arguments: reservedBitCases) func aFrameWithReservedBitsFailsWith1002(rsv: UInt8, frame: WireFrame) async throws {
        var bad = frame
        bad.rsv = rsv
        try await failsAfterAValidMessage(bad, delivery: rsv == 4 ? .byteByByte : .atOnce)
    }

    /// Autobahn 4.1.1–4.1.5 and 4.2.1–4.2.5: the data opcodes 3–7 and the control opcodes
    /// 0xB–0xF, with and without a payload.
    @Test(arguments: [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] as [UInt8])
    func aReservedOpcodeFailsWith1002(opcode: UInt8) async throws {
        let payload: [UInt8] = opcode.isMultiple(of: 2) ? [] : Array("reserved opcode payload".utf8)
        try await failsAfterAValidMessage(WireFrame(opcode: opcode, payload: payload), delivery: .atOnce)
    }

    /// Autobahn 4.x.4: the same, byte by byte, so that the opcode is refused from the first
    /// byte, before the rest of the frame is there.
    @Test(arguments: [5, 0xD] as [UInt8]) func aReservedOpcodeDeliveredByteByByteFailsWith1002(opcode: UInt8) async throws {
        try await failsAfterAValidMessage(WireFrame(opcode: opcode, payload: Array("reserved".utf8)), delivery: .byteByByte)
    }

    // MARK: Helpers

    enum Delivery {
        case atOnce
        case byteByByte
    }

    /// A valid text message, `bad`, then a ping: the message is read, then the connection fails
    /// with 1002, and the ping after the bad frame gets no pong.
    private func failsAfterAValidMessage(
        _ bad: WireFrame, delivery: Delivery, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let frames: [WireFrame] = [.text("before"), bad, .ping(Array("after".utf8))]
        let step: ScriptedWebSocketServer.Step =
            switch delivery {
            case .atOnce: .send(frames)
            case .byteByByte: .sendInPieces(frames.bytes, size: 1, pause: .microseconds(200))
            }
        // The client does not echo: its echo would race the failure.
        var reading = Reading()
        let record = try await conformanceCase([step]) { socket, _ in
            reading = await socket.readToEnd(echoing: false)
        }
        #expect(reading.messages == [.string("before")], sourceLocation: sourceLocation)
        #expect(reading.ending == .failed(.badServerResponse), "\(String(describing: reading.error))", sourceLocation: sourceLocation)
        #expect(record.closeCode == 1002, sourceLocation: sourceLocation)
        #expect(record.pongs.isEmpty, sourceLocation: sourceLocation)
        #expect(record.frames.map(\.opcode) == [WireFrame.close], sourceLocation: sourceLocation)
    }
}
#endif
