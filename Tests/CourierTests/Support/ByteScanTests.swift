import Testing
@testable import Courier

/// The word-at-a-time scans against a plain loop over the same bytes: every byte value that
/// matters, at every position of buffers shorter than, as long as and longer than a word.
@Suite struct ByteScanTests {
    /// Bytes either side of each boundary the scans test, and a few UTF-8 bytes.
    static let probes: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x0C, 0x0D, 0x0E, 0x1F, 0x20, 0x41, 0x7E, 0x7F, 0x80, 0xC3, 0xFF]

    static func buffers() -> [[UInt8]] {
        var buffers: [[UInt8]] = []
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 31] {
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            buffers.append(plain)
            for position in 0..<length {
                for probe in probes {
                    var bytes = plain
                    bytes[position] = probe
                    buffers.append(bytes)
                    // A second, later match, so that a borrow from the first cannot hide it.
                    if position + 3 < length { bytes[position + 3] = 0x0D; buffers.append(bytes) }
                }
            }
        }
        return buffers
    }

    @Test func findsTheFirstByteAtMostCRFromEveryStart() {
        for bytes in Self.buffers() {
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...buffer.count {
                    let expected = buffer[start...].firstIndex { $0 <= 0x0D } ?? buffer.count
                    #expect(ByteScan.indexOfLineBreakOrControl(in: buffer, from: start) == expected, "\(bytes) from \(start)")
                }
            }
        }
    }

    @Test func tellsAValueWithNoControlByteOrDEL() {
        for bytes in Self.buffers() {
            let expected = !bytes.contains { $0 < 0x20 || $0 == 0x7F }
            #expect(bytes.withUnsafeBufferPointer(ByteScan.holdsNoControlByte) == expected, "\(bytes)")
        }
    }

    @Test func tokenCharactersAreRFC9110s() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPFieldSyntax.isTokenCharacter(byte) == tchar.contains(byte), "byte \(byte)")
        }
    }

    @Test func aValueIsRefusedForTheSameBytesAsBefore() {
        for byte in UInt8.min...UInt8.max where byte < 0x80 {
            let value = "text/plain; x=" + String(UnicodeScalar(byte)) + "; charset=utf-8"
            let refused = HTTPFieldSyntax.problem(inValue: value) != nil
            #expect(refused == ((byte < 0x20 && byte != 0x09) || byte == 0x7F), "byte \(byte)")
        }
    }
}
