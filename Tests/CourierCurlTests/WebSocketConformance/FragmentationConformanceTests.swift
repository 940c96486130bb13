#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocket
import CourierWebSocketTestSupport
import Foundation
import Testing

/// Autobahn|Testsuite's section 5 (and 6.1, empty fragments), fragmentation: a message in
/// fragments reads as one, however many and however small; a continuation with nothing to
/// continue, a new message inside a fragmented one, and a fragmented control frame fail the
/// connection with 1002.
@Suite(.timeLimit(.minutes(5))) struct FragmentationConformanceTests {
    // MARK: Valid

    /// Autobahn 5.3–5.5: text in two fragments, at once, frame by frame and byte by byte.
    @Test(arguments: Delivery.allCases) func textInTwoFragmentsIsReadWhole(delivery: Delivery) async throws {
        try await readsWhole(
            [.text("fragment1", fin: false), .continuation("fragment2", fin: true)], delivery: delivery,
            as: .string("fragment1fragment2"))
    }

    @Test(arguments: Delivery.allCases) func binaryInTwoFragmentsIsReadWhole(delivery: Delivery) async throws {
        try await readsWhole(
            [.binary([0, 1, 2], fin: false), .continuation([253, 254, 255], fin: true)], delivery: delivery,
            as: .data(Data([0, 1, 2, 253, 254, 255])))
    }

    /// Many fragments: 1000 of one byte each, 64 of 16 KiB (a 1 MiB message), and 65536 of
    /// 64 bytes (a 4 MiB message, Autobahn 9.3.1, 9.4.1).
    static let manyFragments = [(1000, 1), (64, 16 * 1024)] + (runsLargeCases ? [(65536, 64)] : [])

    @Test(arguments: manyFragments) func textInManyFragmentsIsReadWhole(count: Int, size: Int) async throws {
        let payload = asciiPayload(count * size)
        let text = String(decoding: payload, as: UTF8.self)
        try await readsWhole(fragments(of: payload, opcode: WireFrame.text, size: size), delivery: .atOnce, as: .string(text))
    }

    @Test(arguments: manyFragments) func binaryInManyFragmentsIsReadWhole(count: Int, size: Int) async throws {
        let payload = binaryPayload(count * size)
        try await readsWhole(fragments(of: payload, opcode: WireFrame.binary, size: size), delivery: .atOnce, as: .data(Data(payload)))
    }

    /// Autobahn 6.1.1–6.1.3: an empty message, three empty fragments, and empty first and last
    /// fragments around a full one.
    @Test func emptyFragmentsAreReadAsTheMessageTheyMake() async throws {
        let frames: [WireFrame] = [
            .text(""),
            .text("", fin: false), .continuation("", fin: false), .continuation("", fin: true),
            .text("", fin: false), .continuation("middle frame payload", fin: false), .continuation("", fin: true),
            .binary([], fin: false), .continuation([], fin: true),
        ]
        var reading = Reading()
        let record = try await conformanceCase([.send(frames), .awaitFrames(4), .send([.close(1000)])]) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages == [.string(""), .string(""), .string("middle frame payload"), .data(Data())])
        #expect(reading.ending == .normal)
        #expect(record.messages.map(\.payload) == [[], [], Array("middle frame payload".utf8), []])
        #expect(record.closeCode == 1000)
    }

    // MARK: Invalid (1002)

    /// Autobahn 5.1, 5.2: a ping or pong in two fragments; control frames are never fragmented.
    @Test(arguments: [WireFrame.ping, WireFrame.pong]) func aFragmentedControlFrameFailsWith1002(opcode: UInt8) async throws {
        try await fails([
            WireFrame(fin: false, opcode: opcode, payload: Array("fragment1".utf8)), .continuation("fragment2", fin: true),
        ])
    }

    @Test func aFragmentedCloseFrameFailsWith1002() async throws {
        try await fails([WireFrame(fin: false, opcode: WireFrame.close, payload: [0x03, 0xE8]), .continuation([], fin: true)])
    }

    /// Autobahn 5.9–5.14: a continuation with nothing to continue, final or not, then a valid
    /// message; at once, frame by frame and byte by byte.
    @Test(arguments: [true, false], Delivery.allCases)
    func aContinuationWithNothingToContinueFailsWith1002(fin: Bool, delivery: Delivery) async throws {
        try await fails([.continuation("non-continuation payload", fin: fin), .text("Hello, world!")], delivery: delivery)
    }

    /// Autobahn 5.15: a whole fragmented message, then a continuation with nothing to continue:
    /// the message is read, then the connection fails.
    @Test func aContinuationAfterAFinishedMessageFailsWith1002() async throws {
        try await fails(
            [
                .text("fragment1", fin: false), .continuation("fragment2", fin: true), .continuation("fragment3", fin: false),
                .text("fragment4"),
            ], readBefore: [.string("fragment1fragment2")])
    }

    /// Autobahn 5.16, 5.17: twice a stray continuation then a fragmented message: the first
    /// stray continuation fails the connection.
    @Test(arguments: [false, true]) func strayContinuationsBeforeMessagesFailWith1002(fin: Bool) async throws {
        let round: [WireFrame] = [
            .continuation("fragment1", fin: fin), .text("fragment2", fin: false), .continuation("fragment3", fin: true),
        ]
        try await fails(round + round)
    }

    /// Autobahn 5.18: a message whose second fragment is a text frame again: a new data frame
    /// inside a fragmented message.
    @Test(arguments: [WireFrame.text, WireFrame.binary])
    func aNewDataFrameInsideAFragmentedMessageFailsWith1002(opcode: UInt8) async throws {
        try await fails([.text("fragment1", fin: false), WireFrame(opcode: opcode, payload: Array("fragment2".utf8))])
    }

    // MARK: Helpers

    enum Delivery: String, CaseIterable, CustomTestStringConvertible {
        case atOnce
        case frameByFrame
        case byteByByte

        var testDescription: String { rawValue }
    }

    private func steps(_ frames: [WireFrame], _ delivery: Delivery) -> [ScriptedWebSocketServer.Step] {
        switch delivery {
        case .atOnce: [.send(frames)]
        case .frameByFrame: frames.flatMap { [.send([$0]), .pause(.milliseconds(1))] }
        case .byteByByte: [.sendInPieces(frames.bytes, size: 1, pause: .microseconds(200))]
        }
    }

    private func fragments(of payload: [UInt8], opcode: UInt8, size: Int) -> [WireFrame] {
        stride(from: 0, to: payload.count, by: size).map { start in
            WireFrame(
                fin: start + size >= payload.count, opcode: start == 0 ? opcode : WireFrame.continuation,
                payload: Array(payload[start..<min(payload.count, start + size)]))
        }
    }

    /// `frames` read as `message`, which the client echoes, then the server closes with 1000.
    private func readsWhole(
        _ frames: [WireFrame], delivery: Delivery, as message: WebSocket.Message, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        var reading = Reading()
        let record = try await conformanceCase(steps(frames, delivery) + [.awaitFrames(1), .send([.close(1000)])]) { socket, _ in
            reading = await socket.readToEnd()
        }
        let readWhole = reading.messages == [message]
        #expect(readWhole, "read \(reading.messages.map(\.byteCount)) bytes, not \(message.byteCount)", sourceLocation: sourceLocation)
        #expect(reading.ending == .normal, sourceLocation: sourceLocation)
        let echoedWhole = record.messages.map(\.payload) == [message.bytes]
        #expect(echoedWhole, "echoed \(record.messages)", sourceLocation: sourceLocation)
        #expect(record.closeCode == 1000, sourceLocation: sourceLocation)
    }

    /// `frames` fail the connection with 1002 after `readBefore` was read.
    private func fails(
        _ frames: [WireFrame], delivery: Delivery = .atOnce, readBefore: [WebSocket.Message] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        var reading = Reading()
        let record = try await conformanceCase(steps(frames, delivery)) { socket, _ in
            reading = await socket.readToEnd(echoing: false)
        }
        #expect(reading.messages == readBefore, sourceLocation: sourceLocation)
        #expect(reading.ending == .failed(.badServerResponse), "\(String(describing: reading.error))", sourceLocation: sourceLocation)
        #expect(record.closeCode == 1002, sourceLocation: sourceLocation)
        #expect(record.frames.map(\.opcode) == [WireFrame.close], sourceLocation: sourceLocation)
    }
}
#endif
