#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Courier

/// Where a transfer's request body comes from as libcurl sends it: the request's `Data`, read
/// in place, or a streamed upload's reader, read without waiting.
struct CurlUpload {
    /// What one read of the body gave.
    enum Piece {
        case bytes(Int)
        case end
        /// The producer of a streamed upload is behind: sending pauses until it catches up.
        case starved
        /// Producing the streamed upload failed: the transfer is to stop.
        case failed(CurlError)
    }

    private let body: Data
    private let observer: (@Sendable (Int64) -> Void)?
    /// The reader of a streamed upload; nil for a `Data` body or none.
    var reader: UploadBodyReader?
    /// How much of the body libcurl has read.
    private(set) var offset = 0

    init(plan: CurlRequestPlan) {
        body = plan.body
        observer = plan.bodyObserver
    }

    /// Copies the next part of the body into libcurl's upload buffer. Read straight from the
    /// request's `Data`: no copy of the body is made beforehand, and libcurl copies only what it
    /// is about to send.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Piece {
        if let reader {
            switch reader.read(into: buffer) {
            case .bytes(let count):
                offset += count
                return .bytes(count)
            case .wait:
                return .starved
            case .end:
                return .end
            case .failed:
                let error = reader.failure
                let reason = (error as? InputStreamReadError)?.description
                    ?? "producing the request body failed: \(error.map { "\($0)" } ?? "no error given")"
                return .failed(CurlError(kind: .transfer, curlCode: Curl.Code.abortedByCallback, message: reason))
            }
        }
        let count = min(buffer.count, body.count - offset)
        guard count > 0, let destination = buffer.baseAddress else { return .end }
        let start = offset
        body.withUnsafeBytes { bytes in
            guard let source = bytes.baseAddress else { return }
            destination.copyMemory(from: source + start, byteCount: count)
        }
        offset += count
        observer?(Int64(offset))
        return .bytes(count)
    }

    /// Moves the upload back, which libcurl asks for when it resends the request on a fresh
    /// connection after a reused one turned out closed. Only absolute offsets are asked for.
    mutating func seek(to position: Int64, origin: Int32) -> Int32 {
        if reader != nil {
            // Sent bytes are gone: libcurl then fails with CURLE_SEND_FAIL_REWIND.
            return origin == SEEK_SET && position == Int64(offset) ? Curl.seekOK : Curl.seekImpossible
        }
        guard origin == SEEK_SET, position >= 0, position <= Int64(body.count) else { return Curl.seekFailed }
        offset = Int(position)
        return Curl.seekOK
    }

    /// The body's bytes for `CURLOPT_POSTFIELDS`, which libcurl reads in place: it copies them
    /// into its upload buffer without calling back into Swift for every 64 KiB, and rewinds on
    /// its own when it resends the request. Nil when the body goes through the read callback: a
    /// streamed upload, an observed one (its observer counts what the callback reads), and a
    /// body below ``borrowedBodyMinimum``; and for a request `shape` that sends none.
    ///
    /// The pointer outlives `withUnsafeBytes`, which is sound only for a `Data` that keeps its
    /// bytes in heap storage, as every `Data` above 14 bytes does; the transfer holds it,
    /// unmutated, for as long as the handle may read it (the handle clears the option when it
    /// is detached).
    func borrowedBody(shape: CurlRequestPlan.Shape) -> UnsafeMutableRawPointer? {
        guard reader == nil, observer == nil, body.count >= Self.borrowedBodyMinimum,
              case .withBody = shape else { return nil }
        return body.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
    }

    /// libcurl 7.88 sends a `CURLOPT_POSTFIELDS` body below 64 KiB inside the request's head
    /// and then counts it twice, in `CURLINFO_REQUEST_SIZE` and `CURLINFO_SIZE_UPLOAD`, which
    /// ``ExchangeMetrics/requestBytes`` adds up; smaller bodies take the read callback.
    static let borrowedBodyMinimum = 64 << 10
}
