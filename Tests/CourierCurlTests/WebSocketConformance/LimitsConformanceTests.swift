#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocketTestSupport
import Foundation
import Testing

/// Autobahn|Testsuite's section 9 and 10 in spirit, limits: a message past
/// ``WebSocket/Options/maximumMessageBytes``, whole or in fragments, fails with 1009 and
/// `URLError(.dataLengthExceedsMaximum)`; a reader that reads nothing holds the server back
/// through TCP instead of letting the client's memory grow, and loses nothing.
@Suite(.timeLimit(.minutes(5))) struct LimitsConformanceTests {
    static let limit = 1024

    @Test(arguments: [WireFrame.text, WireFrame.binary]) func aMessageAtTheLimitIsRead(opcode: UInt8) async throws {
        try await reads([WireFrame(opcode: opcode, payload: asciiPayload(Self.limit))], as: asciiPayload(Self.limit))
    }

    @Test(arguments: [WireFrame.text, WireFrame.binary]) func aFragmentedMessageAtTheLimitIsRead(opcode: UInt8) async throws {
        let half = asciiPayload(Self.limit / 2)
        try await reads([WireFrame(fin: false, opcode: opcode, payload: half), .continuation(half, fin: true)], as: half + half)
    }

    @Test(arguments: [WireFrame.text, WireFrame.binary]) func aFramePastTheLimitFailsWith1009(opcode: UInt8) async throws {
        try await failsWith1009([WireFrame(opcode: opcode, payload: asciiPayload(Self.limit + 1))])
    }

    /// Three fragments of half the limit: the third takes the message past it, though no
    /// fragment is past it alone.
    @Test(arguments: [WireFrame.text, WireFrame.binary]) func aFragmentedMessagePastTheLimitFailsWith1009(opcode: UInt8) async throws {
        let half = asciiPayload(Self.limit / 2)
        try await failsWith1009([
            WireFrame(fin: false, opcode: opcode, payload: half), .continuation(half, fin: false), .continuation(half, fin: true),
        ])
    }

    /// One byte at a time past the limit: 1025 one-byte fragments.
    @Test func oneByteFragmentsPastTheLimitFailWith1009() async throws {
        let frames = (0...Self.limit).map { index in
            WireFrame(
                fin: index == Self.limit, opcode: index == 0 ? WireFrame.binary : WireFrame.continuation,
                payload: [UInt8(index & 0xFF)])
        }
        try await failsWith1009(frames)
    }

    /// A server silent for longer than ``WebSocket/Options/idleTimeout`` is left: the client
    /// says it is going away (1001) and reading fails with `.timedOut`.
    @Test func aSilentServerIsLeftAfterTheIdleTimeout() async throws {
        var reading = Reading()
        let record = try await conformanceCase([], options: .patient(idleTimeout: 0.2)) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.ending == .failed(.timedOut))
        #expect(record.closeCode == 1001)
    }

    /// Back-pressure: the server sends 64 MiB in 64 KiB messages to a client whose reader reads
    /// nothing. The client reads ahead a bounded amount, then stops reading the socket, so the
    /// server's writes stop being accepted once the kernel's buffers are full, far below what it
    /// has to send; once the reader reads, every message arrives, in order.
    @Test func aReaderThatReadsNothingHoldsTheServerBackAndLosesNothing() async throws {
        let count = 1024
        let length = 64 * 1024
        let total = count * (length + 10)
        let bound = try kernelBufferBound() + (1 << 20) + 2 * length
        try #require(bound < total, "the kernel may buffer \(bound) bytes, too many for this test to tell anything")
        var stall = ScriptedWebSocketServer.FloodProgress(stalled: false, finished: false, bytesAccepted: 0)
        var stillStalled = stall
        var read = 0
        var outOfOrder: [Int] = []
        let record = try await conformanceCase([.flood(messages: count, length: length)]) { socket, server in
            stall = await server.floodStalledOrFinished()
            // Gives a client that would read on a chance to; the check is that it did not.
            try await Task.sleep(for: .milliseconds(200))
            stillStalled = server.floodProgress
            for try await message in socket.messages {
                // Compared as Data, one memcmp, rather than byte by byte.
                var expected = Data(repeating: UInt8(truncatingIfNeeded: read), count: length)
                expected.replaceSubrange(0..<4, with: withUnsafeBytes(of: UInt32(read).bigEndian) { Data($0) })
                guard case .data(let data) = message, data == expected else {
                    outOfOrder.append(read)
                    break
                }
                read += 1
                if read == count { break }
            }
            try await socket.close()
        }
        #expect(stall.stalled, "the server sent all \(total) bytes without its writes ever stalling")
        #expect(!stall.finished)
        let acceptedAtStall = stall.bytesAccepted
        let acceptedLater = stillStalled.bytesAccepted
        #expect(
            acceptedAtStall <= bound,
            "the kernel accepted \(acceptedAtStall) bytes of \(total), more than its buffers and the read-ahead hold (\(bound))")
        #expect(!stillStalled.finished)
        #expect(acceptedLater <= bound, "the server's writes went on being accepted: \(acceptedLater) bytes")
        #expect(outOfOrder.isEmpty, "message \(outOfOrder) was not the one sent in its place")
        #expect(read == count)
        #expect(record.closeCode == 1000)
    }

    /// A close while the reader has read nothing and the server is held back: the client reads
    /// on to the server's answer, `close` returns, and the messages read ahead stay readable,
    /// in order, before the normal end.
    @Test func aCloseWhileTheServerIsHeldBackCompletes() async throws {
        let length = 64 * 1024
        var stall = ScriptedWebSocketServer.FloodProgress(stalled: false, finished: false, bytesAccepted: 0)
        var reading = Reading()
        let record = try await conformanceCase([.flood(messages: 1024, length: length)]) { socket, server in
            stall = await server.floodStalledOrFinished()
            try await socket.close()
            reading = await socket.readToEnd(echoing: false)
        }
        #expect(stall.stalled)
        #expect(reading.ending == .normal)
        #expect(!reading.messages.isEmpty)
        let inOrder = reading.messages.enumerated().allSatisfy { index, message in
            guard case .data(let data) = message else { return false }
            return data.count == length && Array(data.prefix(4)) == [0, 0, UInt8(index >> 8), UInt8(index & 0xFF)]
        }
        #expect(inOrder, "the messages kept are not the first ones sent, in order")
        #expect(record.closeCode == 1000)
    }

    // MARK: Helpers

    /// The most bytes the two sockets' kernel buffers may hold on this machine: the largest
    /// receive buffer TCP autotuning may give the client and the largest send buffer it may give
    /// the server (`net.ipv4.tcp_rmem`, `net.ipv4.tcp_wmem`).
    private func kernelBufferBound() throws -> Int {
        func maximum(_ name: String) throws -> Int {
            let text = try String(contentsOfFile: "/proc/sys/net/ipv4/\(name)", encoding: .utf8)
            return try #require(text.split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) })
        }
        return try maximum("tcp_rmem") + maximum("tcp_wmem")
    }

    private func reads(_ frames: [WireFrame], as payload: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var reading = Reading()
        let record = try await conformanceCase(
            [.send(frames), .awaitFrames(1), .send([.close(1000)])], options: .patient(maximumMessageBytes: Self.limit)
        ) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages.map(\.bytes) == [payload], sourceLocation: sourceLocation)
        #expect(reading.ending == .normal, sourceLocation: sourceLocation)
        #expect(record.messages.map(\.payload) == [payload], sourceLocation: sourceLocation)
        #expect(record.closeCode == 1000, sourceLocation: sourceLocation)
    }

    private func failsWith1009(_ frames: [WireFrame], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var reading = Reading()
        let record = try await conformanceCase([.send(frames)], options: .patient(maximumMessageBytes: Self.limit)) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages.isEmpty, sourceLocation: sourceLocation)
        #expect(
            reading.ending == .failed(.dataLengthExceedsMaximum), "\(String(describing: reading.error))", sourceLocation: sourceLocation)
        #expect(record.closeCode == 1009, sourceLocation: sourceLocation)
        #expect(record.frames.map(\.opcode) == [WireFrame.close], sourceLocation: sourceLocation)
    }
}
#endif
