import Courier

/// Where a transfer's response body goes, decided once when the transfer is made: collected
/// whole and handed over with the exchange, or streamed to a reader through its storage.
enum CurlTransferBody {
    case collected(CurlCollectedBody)
    case streamed(CurlStreamedBody, to: ResponseBodyStorage)
    /// Only while one of the above is changed in place, so that its buffers are never copied:
    /// a payload taken out of an enum that still holds it is copied on its first write.
    case modifying

    /// Where a streamed body goes; nil when the body is collected.
    var storage: ResponseBodyStorage? {
        if case .streamed(_, let storage) = self { storage } else { nil }
    }

    /// Decoded body bytes received so far, for the transfer's metrics.
    var byteCount: Int {
        switch self {
        case .collected(let body): body.count
        case .streamed(let body, _): body.byteCount
        case .modifying: 0
        }
    }

    /// Runs `change` on a collected body in place; nil when the body streams.
    mutating func withCollected<Result>(_ change: (inout CurlCollectedBody) -> Result) -> Result? {
        guard case .collected(var body) = self else { return nil }
        self = .modifying
        defer { self = .collected(body) }
        return change(&body)
    }

    /// Runs `change` on a streamed body in place, with its storage; nil when the body is collected.
    mutating func withStreamed<Result>(_ change: (inout CurlStreamedBody, ResponseBodyStorage) -> Result) -> Result? {
        guard case .streamed(var body, let storage) = self else { return nil }
        self = .modifying
        defer { self = .streamed(body, to: storage) }
        return change(&body, storage)
    }

    /// Gives back a buffer never handed over: the transfer failed or was abandoned.
    func giveBackBuffer() {
        switch self {
        case .collected(let body): body.giveBackBuffer()
        case .streamed(let body, _): body.giveBackBuffer()
        case .modifying: break
        }
    }
}
