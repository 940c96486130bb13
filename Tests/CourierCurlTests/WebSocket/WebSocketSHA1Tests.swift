import Testing
@testable import CourierCurl

/// SHA-1 against the test vectors of RFC 3174 §7.3 and FIPS 180, and messages whose lengths sit
/// on either side of the padding's block boundaries (digests from Python's hashlib).
@Suite struct WebSocketSHA1Tests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test func rfc3174Vectors() {
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        let repeated = Array(String(repeating: "01234567", count: 80).utf8)
        #expect(hex(SHA1.digest(repeated)) == "dea356a2cddd90c7a7ecedc5ebb563934f460452")
    }

    @Test func theEmptyMessage() {
        #expect(hex(SHA1.digest([UInt8]())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test(arguments: [
        (55, "8ae2d46729cfe68ff927af5eec9c7d1b66d65ac2"),
        (56, "636e2ec698dac903498e648bd2f3af641d3c88cb"),
        (63, "6d942da0c4392b123528f2905c713a3ce28364bd"),
        (64, "c6138d514ffa2135bfce0ed0b8fac65669917ec7"),
        (65, "69bd728ad6e13cd76ff19751fde427b00e395746"),
        (119, "41c89d06001bab4ab78736b44efe7ce18ce6ae08"),
        (120, "d3dbd653bd8597b7475321b60a36891278e6a04a"),
        (128, "e6434bc401f98603d7eda504790c98c67385d535"),
    ])
    func lengthsAroundThePaddingBoundaries(length: Int, digest: String) {
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        #expect(hex(SHA1.digest(message)) == digest)
    }
}
