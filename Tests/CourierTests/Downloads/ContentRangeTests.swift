@testable import Courier
import Testing

/// `Content-Range` as RFC 9110 §14.4 writes it, and what a hostile server might send instead.
@Suite struct ContentRangeTests {
    @Test func aRangeWithItsCompleteLength() {
        #expect(ContentRange("bytes 500-999/1000") == ContentRange(range: 500...999, completeLength: 1000))
        #expect(ContentRange("Bytes 0-0/1") == ContentRange(range: 0...0, completeLength: 1))
    }

    @Test func aRangeOfUnknownLength() {
        #expect(ContentRange("bytes 10-19/*") == ContentRange(range: 10...19, completeLength: nil))
    }

    @Test func anUnsatisfiedRangeGivesOnlyTheLength() {
        #expect(ContentRange("bytes */1000") == ContentRange(range: nil, completeLength: 1000))
    }

    @Test(arguments: [
        "", "bytes", "bytes 5-4/10", "bytes 0-10/10", "bytes */*", "items 0-1/2", "bytes 0-1", "bytes -1-2/3",
        "bytes 0-99999999999999999999/*", "bytes 1-2/3x", "bytes a-b/c", "bytes 0 - 1/2",
    ])
    func anythingElseIsRefused(_ value: String) {
        #expect(ContentRange(value) == nil)
    }
}
