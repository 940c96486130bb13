import Testing
@testable import CourierCurl

/// The server's side of permessage-deflate, read: RFC 7692 §7.2.3's examples, the window kept or
/// not, and the bound on what a message may inflate to.
@Suite struct WebSocketInflaterTests {
    /// The messages `messages` (each a list of frame payloads) inflate to, in order.
    private func inflate(
        _ messages: [[[UInt8]]], with inflater: inout WebSocketInflater, limit: Int = 1 << 20
    ) throws(WebSocketError) -> [String] {
        var texts: [String] = []
        for frames in messages {
            var message: [UInt8] = []
            for (index, frame) in frames.enumerated() {
                try inflater.inflate(frame, isFinal: index == frames.count - 1, onto: &message, limit: limit)
            }
            texts.append(String(decoding: message, as: UTF8.self))
        }
        return texts
    }

    private func inflate(_ messages: [[[UInt8]]], noContextTakeover: Bool = false) throws(WebSocketError) -> [String] {
        var inflater = WebSocketInflater(noContextTakeover: noContextTakeover)
        return try inflate(messages, with: &inflater)
    }

    // MARK: RFC 7692 §7.2.3

    @Test func helloInOneFrameAndInTwo() throws {
        #expect(try inflate([[compressedHello]]) == ["Hello"])
        #expect(try inflate([[[0xF2, 0x48, 0xCD], [0xC9, 0xC9, 0x07, 0x00]]]) == ["Hello"])
        #expect(try inflate([[[], [0xF2], [], [0x48, 0xCD, 0xC9, 0xC9, 0x07], [0x00]]]) == ["Hello"])
    }

    @Test func theSecondMessageRefersBackIntoTheFirst() throws {
        #expect(try inflate([[compressedHello], [compressedHelloAgain]]) == ["Hello", "Hello"])
    }

    @Test func withoutContextTakeoverThereIsNothingToReferBackTo() {
        #expect(throws: WebSocketError.invalidCompressedData("invalid distance too far back")) {
            try inflate([[compressedHello], [compressedHelloAgain]], noContextTakeover: true)
        }
    }

    @Test func aStoredBlockTwoBlocksAndAnEmptyMessage() throws {
        // §7.2.3.3: no compression; §7.2.3.5: two blocks, the first flushed.
        let stored: [UInt8] = [0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00]
        let twoBlocks: [UInt8] = [0xF2, 0x48, 0x05, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xCA, 0xC9, 0xC9, 0x07, 0x00]
        #expect(try inflate([[stored], [twoBlocks], [[0x00]]]) == ["Hello", "Hello", ""])
    }

    @Test func aFinalBlockEndsTheStreamAndKeepsTheWindow() throws {
        // §7.2.3.4: a block with BFINAL set and a padding byte; the next message still refers
        // back into it, as the window is kept.
        let final: [UInt8] = [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00]
        #expect(try inflate([[final], [compressedHelloAgain], [final]]) == ["Hello", "Hello", "Hello"])
    }

    // MARK: Errors

    @Test func dataThatIsNotDeflateFailsWith1002() {
        let error = #expect(throws: WebSocketError.self) { try inflate([[[0xFF, 0xFF, 0xFF, 0xFF]]]) }
        guard case .invalidCompressedData(let reason) = error else {
            Issue.record("expected invalidCompressedData, got \(String(describing: error))")
            return
        }
        #expect(reason == "invalid block type")
        #expect(error?.closeCode == .protocolError)
        #expect(error?.description == "the server sent a compressed message that does not inflate: invalid block type")
    }

    @Test func aMessageCutShortFailsRatherThanSpillIntoTheNext() {
        // Without its last byte "Hello" ends inside its block; an empty payload is no block at
        // all (the empty message is 0x00), and the 4 bytes appended would open one.
        #expect(throws: WebSocketError.invalidCompressedData("the message ends inside a DEFLATE block")) {
            try inflate([[Array(compressedHello.dropLast())]])
        }
        #expect(throws: WebSocketError.invalidCompressedData("the message ends inside a DEFLATE block")) {
            try inflate([[[]]])
        }
    }

    // MARK: The bound

    @Test func aMessageAtTheLimitInflates() throws {
        var deflater = WebSocketDeflater()
        let payload = [UInt8](repeating: 0x61, count: 4096)
        let compressed = try deflater.compress(payload)
        var inflater = WebSocketInflater()
        var message: [UInt8] = []
        try inflater.inflate(compressed, isFinal: true, onto: &message, limit: 4096)
        #expect(message == payload)
    }

    /// 20 KiB of DEFLATE that would be 20 MiB: refused at the 16 MiB limit with 1009, after
    /// zlib wrote at most one byte past it, and the message never held more than the limit.
    @Test func aBombStopsAtTheLimit() throws {
        let limit = WebSocketConnectionState.defaultMaximumMessageLength
        let bomb = try compressedZeros(count: 20 << 20)
        #expect(bomb.count < 32 * 1024)
        var inflater = WebSocketInflater()
        var message: [UInt8] = []
        #expect(throws: WebSocketError.compressedMessageTooLarge(limit: limit)) {
            try inflater.inflate(bomb, isFinal: true, onto: &message, limit: limit)
        }
        #expect(inflater.inflatedByteCount <= limit + WebSocketInflater.chunkSize)
        #expect(inflater.inflatedByteCount == limit + 1)
        #expect(message.count <= limit)
        #expect(message.capacity <= limit + WebSocketInflater.chunkSize)
        #expect(WebSocketError.compressedMessageTooLarge(limit: limit).description
            == "the server sent a compressed message that inflates to more than 16 MiB")
        #expect(WebSocketError.compressedMessageTooLarge(limit: limit).closeCode == .messageTooBig)
    }

    /// The same bomb in 1 KiB fragments: the limit holds for the message, not the fragment.
    @Test func aFragmentedBombStopsAtTheLimit() throws {
        let limit = 1 << 20
        let bomb = try compressedZeros(count: 8 << 20)
        var inflater = WebSocketInflater()
        var message: [UInt8] = []
        var fragments = stride(from: 0, to: bomb.count, by: 1024).map { Array(bomb[$0..<min($0 + 1024, bomb.count)]) }[...]
        let error = #expect(throws: WebSocketError.self) {
            while let fragment = fragments.popFirst() {
                try inflater.inflate(fragment, isFinal: fragments.isEmpty, onto: &message, limit: limit)
            }
        }
        #expect(error == .compressedMessageTooLarge(limit: limit))
        #expect(inflater.inflatedByteCount == limit + 1)
        #expect(message.count <= limit)
    }

    @Test func theCountStartsAgainWithEachMessage() throws {
        var inflater = WebSocketInflater()
        #expect(try inflate([[compressedHello], [compressedHelloAgain]], with: &inflater) == ["Hello", "Hello"])
        #expect(inflater.inflatedByteCount == 5)
    }

    // MARK: Value semantics

    @Test func aCopyGoesOnOnItsOwn() throws {
        var first = WebSocketInflater()
        #expect(try inflate([[compressedHello]], with: &first) == ["Hello"])
        var second = first
        // Each has the window "Hello", whatever the other reads.
        #expect(try inflate([[compressedHelloAgain]], with: &first) == ["Hello"])
        #expect(try inflate([[compressedHelloAgain]], with: &second) == ["Hello"])
        #expect(try inflate([[compressedHello]], with: &first) == ["Hello"])
        #expect(try inflate([[compressedHelloAgain]], with: &second) == ["Hello"])
    }
}
