#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One attempt of a resumable download: which request to send for the file as it is, and what
/// to do with the head that answers it. A value, so every case is tested without a socket.
package struct ResumePlan: Sendable, Equatable {
    /// Bytes already in the file that the request asks the server to continue after; 0 starts
    /// from the beginning and sends no `Range`.
    package var offset: Int64
    /// The `If-Range` sent with the range; `nil` exactly when `offset` is 0.
    package var validator: ResumeValidator?

    /// What to do with the response to the request.
    package enum Action: Sendable, Equatable {
        /// Write the body at `offset`, after truncating the file there: 0 for a 200, the
        /// offset asked for by a 206 whose range starts there. `range` is the 206's, to check
        /// that the file is whole once its body ends.
        case write(at: Int64, range: ContentRange?)
        /// The file is the whole representation already (a 416 whose `bytes */LENGTH` is the
        /// offset): keep it, drop the record.
        case complete
        /// Ask again from byte 0 without a range: a 416 that does not say the file is complete.
        case startOver
        /// A 206 whose range does not start at the offset, or has no `Content-Range`: writing it
        /// would put bytes in the wrong place, so the file is left as it is.
        case misplacedRange(String?)
        /// Any other status: the body is not the representation, so it is not written and the
        /// file and record stay for a later attempt.
        case leave
    }

    package init(offset: Int64, validator: ResumeValidator?) {
        self.offset = validator == nil ? 0 : offset
        self.validator = offset > 0 ? validator : nil
    }

    /// The plan for `request` given the partial file's size (`nil` when there is none) and the
    /// record beside it: a range only for a GET, a file with bytes in it and a record made for
    /// this URL (RFC 9110 §14.2 defines ranges for GET alone).
    package init(request: URLRequest, fileSize: Int64?, record: ResumeRecord?) {
        let method = request.httpMethod ?? "GET"
        guard method == "GET", let fileSize, fileSize > 0, let record, record.url == request.url?.redactedString else {
            self.init(offset: 0, validator: nil)
            return
        }
        self.init(offset: fileSize, validator: record.validator)
    }

    /// `request` with `Range: bytes=OFFSET-` and `If-Range` when resuming, and without either
    /// otherwise. `Accept-Encoding: identity` unless the request sets one: a range counts bytes
    /// of the encoded body, which the engines would decode before it reaches the file.
    package func request(from request: URLRequest) -> URLRequest {
        var request = request
        request.setValue(validator.map { _ in "bytes=\(offset)-" }, forHTTPHeaderField: "Range")
        request.setValue(validator?.fieldValue, forHTTPHeaderField: "If-Range")
        if request.value(forHTTPHeaderField: "Accept-Encoding") == nil {
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
        return request
    }

    /// What to do with a final response of `statusCode` and `Content-Range` value.
    package func action(statusCode: Int, contentRange: String?) -> Action {
        switch statusCode {
        case 200:
            return .write(at: 0, range: nil)
        case 206:
            guard let contentRange, let parsed = ContentRange(contentRange), let range = parsed.range,
                range.lowerBound == offset
            else { return .misplacedRange(contentRange) }
            return .write(at: offset, range: parsed)
        case 416 where validator != nil:
            let complete = contentRange.flatMap(ContentRange.init)?.completeLength
            return complete == offset ? .complete : .startOver
        default:
            return .leave
        }
    }

    /// Whether the file holds all of the representation once a body written for `action` has
    /// ended at `fileSize`: always after a 200 (its framing was checked by the engine); after
    /// a 206, when its range reaches the complete length, or ends where the range said when
    /// the server gave none.
    package static func isComplete(after action: Action, fileSize: Int64) -> Bool {
        guard case .write(_, let range?) = action, let bytes = range.range else { return true }
        guard fileSize == bytes.upperBound + 1 else { return false }
        return range.completeLength.map { $0 == fileSize } ?? true
    }
}
