import Foundation
import Testing

@Suite struct ParityDocumentTests {
    /// The repository root, three levels above this file.
    private static let documentURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(ParityDocument.fileName)

    @Test func parityPageMatchesTheCatalogue() throws {
        let generated = ParityDocument.markdown(for: ParityCatalogue.cases)
        if ProcessInfo.processInfo.environment[ParityDocument.writeVariable] == "1" {
            try generated.write(to: Self.documentURL, atomically: true, encoding: .utf8)
            return
        }
        let committed = try String(contentsOf: Self.documentURL, encoding: .utf8)
        #expect(
            committed == generated,
            "PARITY.md is out of date: run \(ParityDocument.writeVariable)=1 swift test --filter ParityDocument"
        )
    }
}
