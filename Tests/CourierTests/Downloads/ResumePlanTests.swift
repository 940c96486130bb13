#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Courier
import Foundation
import Testing

/// Which request a resumable download sends and what it does with the head that answers,
/// decided without a socket.
@Suite struct ResumePlanTests {
    private let url = URL(string: "http://127.0.0.1:8080/file")!
    private let tag = ResumeValidator.entityTag("\"v1\"")
    private var record: ResumeRecord { ResumeRecord(url: url.absoluteString, validator: tag) }
    private var resuming: ResumePlan { ResumePlan(offset: 500, validator: tag) }

    @Test func aPartialFileWithItsRecordAsksForTheRest() {
        let plan = ResumePlan(request: URLRequest(url: url), fileSize: 500, record: record)
        #expect(plan == resuming)
        let request = plan.request(from: URLRequest(url: url))
        #expect(request.value(forHTTPHeaderField: "Range") == "bytes=500-")
        #expect(request.value(forHTTPHeaderField: "If-Range") == "\"v1\"")
        #expect(request.value(forHTTPHeaderField: "Accept-Encoding") == "identity")
    }

    @Test func withoutFileRecordOrMatchingURLItStartsFromTheBeginning() {
        let other = ResumeRecord(url: "http://127.0.0.1:8080/other", validator: tag)
        var post = URLRequest(url: url)
        post.httpMethod = "POST"
        let fresh = ResumePlan(offset: 0, validator: nil)
        #expect(ResumePlan(request: URLRequest(url: url), fileSize: nil, record: record) == fresh)
        #expect(ResumePlan(request: URLRequest(url: url), fileSize: 0, record: record) == fresh)
        #expect(ResumePlan(request: URLRequest(url: url), fileSize: 500, record: nil) == fresh)
        #expect(ResumePlan(request: URLRequest(url: url), fileSize: 500, record: other) == fresh)
        #expect(ResumePlan(request: post, fileSize: 500, record: record) == fresh)
    }

    @Test func aFreshRequestLosesTheCallersRangeAndKeepsItsEncoding() {
        var request = URLRequest(url: url)
        request.setValue("bytes=0-10", forHTTPHeaderField: "Range")
        request.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
        let sent = ResumePlan(offset: 0, validator: nil).request(from: request)
        #expect(sent.value(forHTTPHeaderField: "Range") == nil)
        #expect(sent.value(forHTTPHeaderField: "If-Range") == nil)
        #expect(sent.value(forHTTPHeaderField: "Accept-Encoding") == "gzip")
    }

    @Test func a206AtTheOffsetIsAppended() {
        let range = ContentRange(range: 500...999, completeLength: 1000)
        #expect(resuming.action(statusCode: 206, contentRange: "bytes 500-999/1000") == .write(at: 500, range: range))
    }

    @Test(arguments: ["bytes 0-999/1000", "bytes 501-999/1000", "bytes */1000", "garbage"])
    func a206ElsewhereIsRefused(_ contentRange: String) {
        #expect(resuming.action(statusCode: 206, contentRange: contentRange) == .misplacedRange(contentRange))
    }

    @Test func a206WithoutContentRangeIsRefused() {
        #expect(resuming.action(statusCode: 206, contentRange: nil) == .misplacedRange(nil))
    }

    @Test func a200StartsTheFileAgain() {
        #expect(resuming.action(statusCode: 200, contentRange: nil) == .write(at: 0, range: nil))
        #expect(ResumePlan(offset: 0, validator: nil).action(statusCode: 200, contentRange: nil) == .write(at: 0, range: nil))
    }

    @Test func a416ForTheFilesSizeMeansComplete() {
        #expect(resuming.action(statusCode: 416, contentRange: "bytes */500") == .complete)
    }

    @Test(arguments: ["bytes */400", "bytes */1000", nil] as [String?])
    func another416StartsOver(_ contentRange: String?) {
        #expect(resuming.action(statusCode: 416, contentRange: contentRange) == .startOver)
    }

    @Test func a416WithoutARangeAskedAndOtherStatusesLeaveTheFile() {
        #expect(ResumePlan(offset: 0, validator: nil).action(statusCode: 416, contentRange: "bytes */0") == .leave)
        for status in [204, 304, 404, 500, 503] {
            #expect(resuming.action(statusCode: status, contentRange: nil) == .leave)
        }
    }

    @Test func aFileIsCompleteWhenItsRangeReachesTheEnd() {
        let whole = ResumePlan.Action.write(at: 500, range: ContentRange(range: 500...999, completeLength: 1000))
        let part = ResumePlan.Action.write(at: 500, range: ContentRange(range: 500...599, completeLength: 1000))
        let unknown = ResumePlan.Action.write(at: 500, range: ContentRange(range: 500...599, completeLength: nil))
        #expect(ResumePlan.isComplete(after: whole, fileSize: 1000))
        #expect(!ResumePlan.isComplete(after: whole, fileSize: 900))
        #expect(!ResumePlan.isComplete(after: part, fileSize: 600))
        #expect(ResumePlan.isComplete(after: unknown, fileSize: 600))
        #expect(ResumePlan.isComplete(after: .write(at: 0, range: nil), fileSize: 123))
    }
}
