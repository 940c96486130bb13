@testable import Courier
import Foundation
import Testing

/// The record kept beside a partial file: written, read back, and refused when it is not one.
@Suite struct ResumeRecordTests {
    @Test(arguments: [ResumeValidator.entityTag("\"abc\""), .lastModified("Sat, 01 Jan 2000 00:00:00 GMT")])
    func aRecordReadsBackAsWritten(_ validator: ResumeValidator) {
        let record = ResumeRecord(url: "http://127.0.0.1:8080/file", validator: validator)
        #expect(ResumeRecord(decoding: record.encoded) == record)
    }

    @Test func theRecordIsTextANameBesideTheFile() {
        let record = ResumeRecord(url: "http://h/f", validator: .entityTag("\"e\""))
        #expect(String(decoding: record.encoded, as: UTF8.self) == "courier-resume 1\nurl http://h/f\netag \"e\"\n")
        #expect(ResumeRecord.location(for: URL(fileURLWithPath: "/tmp/a/big.iso")).path == "/tmp/a/big.iso.courier-resume")
    }

    @Test(arguments: [
        "", "courier-resume 2\nurl http://h/f\netag \"e\"\n", "courier-resume 1\nurl http://h/f\netag \"e\"",
        "courier-resume 1\nurl http://h/f\nsize 10\n", "courier-resume 1\nurl http://h/f\netag \n",
        "courier-resume 1\nurl http://h/f\netag \"e\"\nextra\n", "courier-resume 1\nhttp://h/f\netag \"e\"\n",
    ])
    func anythingElseIsNoRecord(_ text: String) {
        #expect(ResumeRecord(decoding: Data(text.utf8)) == nil)
    }

    @Test func aLargeOrBinaryFileIsNoRecord() {
        #expect(ResumeRecord(decoding: Data(repeating: 0x41, count: 1 << 20)) == nil)
        #expect(ResumeRecord(decoding: Data([0xFF, 0xFE, 0x00])) == nil)
    }

    @Test func storingLoadingAndRemovingGoThroughTheFile() throws {
        let location = FileManager.default.temporaryDirectory.appendingPathComponent("courier-record-\(UUID().uuidString)")
        let record = ResumeRecord(url: "http://h/f", validator: .entityTag("\"e\""))
        #expect(ResumeRecord.load(from: location) == nil)
        try record.store(at: location)
        #expect(ResumeRecord.load(from: location) == record)
        try ResumeRecord.remove(at: location)
        #expect(!FileManager.default.fileExists(atPath: location.path))
        try ResumeRecord.remove(at: location)
    }
}
