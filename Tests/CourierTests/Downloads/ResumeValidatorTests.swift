@testable import Courier
import Testing

/// Which validator a response offers for `If-Range` (RFC 9110 §13.1.5 and §8.8.2.2).
@Suite struct ResumeValidatorTests {
    private let modified = "Sat, 01 Jan 2000 00:00:00 GMT"

    @Test func aStrongEntityTagIsChosenFirst() {
        let fields: HeaderFields = ["ETag": "\"v1\"", "Last-Modified": modified, "Date": "Sun, 02 Jan 2000 00:00:00 GMT"]
        #expect(ResumeValidator(fields) == .entityTag("\"v1\""))
        #expect(ResumeValidator(fields)?.fieldValue == "\"v1\"")
    }

    @Test func aWeakEntityTagGivesWayToAStrongDate() {
        let fields: HeaderFields = ["ETag": "W/\"v1\"", "Last-Modified": modified, "Date": "Sat, 01 Jan 2000 00:00:01 GMT"]
        #expect(ResumeValidator(fields) == .lastModified(modified))
    }

    @Test func aDateLessThanASecondBeforeTheResponseIsWeak() {
        #expect(ResumeValidator(["Last-Modified": modified, "Date": modified]) == nil)
        #expect(ResumeValidator(["Last-Modified": modified]) == nil)
    }

    @Test(arguments: ["v1", "\"v1", "\"a\"b\"", "\"a\", \"b\"", "\"tab\there\"", "\"caf\u{E9}\"", "\"" + String(repeating: "x", count: 2000) + "\""])
    func aMalformedOrOverlongTagIsNoValidator(_ tag: String) {
        #expect(ResumeValidator(["ETag": tag]) == nil)
    }

    @Test func noValidatorsMeansNone() {
        #expect(ResumeValidator([:]) == nil)
    }
}
