import Foundation
import Testing
@testable import Courier

/// The boundary check a file goes through while it is read, chunk by chunk.
@Suite struct BoundaryScannerTests {
    private static func scan(_ chunks: [String], for boundary: String = "BOUNDARY") -> [Bool] {
        var scanner = BoundaryScanner(boundary: boundary)
        return chunks.map { scanner.found(in: Data($0.utf8)) }
    }

    @Test func aBoundaryWithinAChunkIsFound() {
        #expect(Self.scan(["abc", "xxBOUNDARYxx"]) == [false, true])
    }

    @Test func aBoundarySplitAcrossChunksIsFound() {
        #expect(Self.scan(["xxBOUN", "DARYxx"]) == [false, true])
        #expect(Self.scan(["B", "O", "U", "N", "D", "A", "R", "Y"]) == [false, false, false, false, false, false, false, true])
        #expect(Self.scan(["xBOU", "", "ND", "ARY"]) == [false, false, false, true])
    }

    @Test func nearMissesAreNotFound() {
        #expect(Self.scan(["BOUNDAR", "xBOUNDAR", "Y"]) == [false, false, true])
        #expect(Self.scan(["BOUNDAR", "x", "OUNDARY"]) == [false, false, false])
        #expect(Self.scan(["--BOUNDARz--", "\r\n--BOUNDAR"]) == [false, false])
    }

    @Test func aLargeChunkKeepsOnlyItsTail() {
        let large = String(repeating: "z", count: 100_000) + "BOUND"
        #expect(Self.scan([large, "ARY"]) == [false, true])
        #expect(Self.scan([large, "x", "ARY"]) == [false, false, false])
    }
}
