import Testing
@testable import CourierCurl

/// The client's side of permessage-deflate, written: RFC 7692 §7.2.3's bytes, the window kept or
/// not, and round trips through the inflater.
@Suite struct WebSocketDeflaterTests {
    @Test func helloCompressesAsRFC7692Shows() throws {
        var deflater = WebSocketDeflater()
        #expect(try deflater.compress(Array("Hello".utf8)) == compressedHello)
        // §7.2.3.2: the same message again refers back into the first.
        #expect(try deflater.compress(Array("Hello".utf8)) == compressedHelloAgain)
    }

    @Test func withoutContextTakeoverEachMessageStandsAlone() throws {
        var deflater = WebSocketDeflater(noContextTakeover: true)
        for _ in 0..<3 {
            #expect(try deflater.compress(Array("Hello".utf8)) == compressedHello)
        }
    }

    @Test func anEmptyMessageIsOneByteWhereverItComes() throws {
        var deflater = WebSocketDeflater()
        #expect(try deflater.compress([]) == [0x00])
        _ = try deflater.compress(Array("Hello".utf8))
        #expect(try deflater.compress([]) == [0x00])
        #expect(try deflater.compress([]) == [0x00])
        // The window is untouched: "Hello" still refers back.
        #expect(try deflater.compress(Array("Hello".utf8)) == compressedHelloAgain)
    }

    @Test func aCopyGoesOnOnItsOwn() throws {
        var first = WebSocketDeflater()
        _ = try first.compress(Array("Hello".utf8))
        var second = first
        #expect(try first.compress(Array("Hello".utf8)) == compressedHelloAgain)
        #expect(try second.compress(Array("Hello".utf8)) == compressedHelloAgain)
    }

    /// Messages larger than the window, alike enough that later ones refer back into earlier
    /// ones, in every window size and either context mode, come back whole.
    @Test(arguments: [8, 9, 12, 15], [false, true])
    func roundTrips(windowBits: Int, noContextTakeover: Bool) throws {
        var deflater = WebSocketDeflater(windowBits: windowBits, noContextTakeover: noContextTakeover)
        var inflater = WebSocketInflater(windowBits: windowBits, noContextTakeover: noContextTakeover)
        var generator = SeededGenerator(seed: UInt64(windowBits))
        for length in [0, 1, 100, 300, 5000, 70_000, 200_000] {
            let message = sentences(byteCount: length, using: &generator)
            let compressed = try deflater.compress(message)
            if length >= 5000 { #expect(compressed.count < length / 2) }
            var inflated: [UInt8] = []
            try inflater.inflate(compressed, isFinal: true, onto: &inflated, limit: 1 << 20)
            #expect(inflated == message, "\(length) bytes")
        }
    }

    /// With 8 bits agreed zlib compresses with 9 (it has no 8), yet refers back no further than
    /// 256 bytes: a 256-byte inflater reads it. Each block goes twice, in two messages, so that
    /// the second would refer 200 to 300 bytes back into the first, across inflate calls, where
    /// zlib holds an inflater to its window (within one call it reads back into its output).
    @Test func eightBitsCompressesForA256ByteWindow() throws {
        var deflater = WebSocketDeflater(windowBits: 8)
        var inflater = WebSocketInflater(windowBits: 8)
        #expect(deflater.zlibWindowBits == 9)
        var generator = SeededGenerator(seed: 8)
        for distance in stride(from: 200, through: 300, by: 10) {
            let block = (0..<distance).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for _ in 0..<2 {
                var inflated: [UInt8] = []
                try inflater.inflate(try deflater.compress(block), isFinal: true, onto: &inflated, limit: 1 << 20)
                #expect(inflated == block, "a block of \(distance) bytes")
            }
        }
    }
}
