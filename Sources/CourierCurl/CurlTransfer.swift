import Foundation
import Synchronization

/// What one exchange produced: the raw header block of the final response and its decoded body.
struct CurlExchange: Sendable {
    var headerBytes: [UInt8]
    var body: Data
}

/// The Swift side of one running easy handle: its plan, the continuation of the task awaiting
/// it, and the bytes libcurl's callbacks hand over.
///
/// Ownership: the awaiting task creates it and sets ``continuation`` before submitting it; from
/// then on only the curl thread touches the mutable state (callbacks run on that thread, inside
/// `curl_multi_perform`). The one field other threads write is the cancellation flag, an atomic.
/// The event loop holds a strong reference for as long as an easy handle points at it (it is
/// the `CURLOPT_PRIVATE`, `WRITEDATA` and `HEADERDATA` pointer), and drops it only after the
/// handle was removed from the multi handle and reset.
final class CurlTransfer: @unchecked Sendable {
    let id: TransferID
    let plan: CurlRequestPlan
    private let maximumResponseBytes: Int
    private let maximumHeaderBytes: Int
    private let maximumConnectionsPerHost: Int
    private let cancelled = Atomic<Bool>(false)

    /// Resumed exactly once, by ``complete(_:)``.
    var continuation: UnsafeContinuation<CurlExchange, any Error>?

    // MARK: Curl-thread state

    /// The easy handle running this transfer, so the body callback can read Content-Length.
    var easy: Curl.EasyPointer?
    /// The `CURLOPT_HTTPHEADER` list, kept alive for as long as the transfer runs.
    let headerList: CurlHeaderList
    /// How much of the request body libcurl has read (see ``sendBody(into:)``).
    private var uploadOffset = 0
    private var headerBytes: [UInt8] = []
    private var headerByteCount = 0
    /// Small bodies grow here; see ``CurlBodyBufferPool/minimumCapacity``.
    private var body = Data()
    /// Large bodies are written here instead, and handed over without a copy.
    private var pooledBody: CurlBodyBufferPool.Buffer?
    private var pooledCount = 0
    private let bodyPool: CurlBodyBufferPool
    private var hasReservedBody = false
    /// Set when a callback stopped the transfer because a limit was passed.
    private(set) var exceededLimit: CurlError?
    /// Set when reading `URLRequest.httpBodyStream` failed and the read callback stopped the
    /// transfer.
    private(set) var bodyStreamFailure: CurlError?
    /// Set when the progress callback stopped the transfer past a timeout (see
    /// ``overdueError(at:)``).
    private(set) var timedOut: CurlError?
    private var lastActivity = ContinuousClock.now
    /// Whether libcurl has called the progress callback yet: it does not while the transfer
    /// waits in its queue for a free connection.
    private var hasProgressed = false
    /// Bytes seen by the last progress call: body both ways plus header bytes, so a server
    /// trickling headers is not silent either.
    private var bytesMoved: Int64 = 0

    init(
        id: TransferID, plan: CurlRequestPlan, headerList: CurlHeaderList,
        configuration: CurlTransport.Configuration, bodyPool: CurlBodyBufferPool
    ) {
        self.id = id
        self.plan = plan
        self.headerList = headerList
        self.bodyPool = bodyPool
        maximumResponseBytes = max(0, configuration.policies.maximumResponseBytes)
        maximumHeaderBytes = max(0, configuration.policies.maximumHeaderBytes)
        maximumConnectionsPerHost = max(1, configuration.maximumConnectionsPerHost)
    }

    deinit {
        // A failed or abandoned transfer still owns its buffer.
        if let pooledBody { bodyPool.give(pooledBody) }
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func markCancelled() { cancelled.store(true, ordering: .releasing) }

    /// Resumes the awaiting task; later calls do nothing.
    func complete(_ result: Result<CurlExchange, any Error>) {
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume(with: result)
    }

    /// Hands over what the callbacks collected.
    func takeExchange() -> CurlExchange {
        defer { headerBytes = []; body = Data() }
        if let pooledBody {
            self.pooledBody = nil
            return CurlExchange(headerBytes: headerBytes, body: bodyPool.data(pooledBody, count: pooledCount))
        }
        return CurlExchange(headerBytes: headerBytes, body: body)
    }

    /// Moves the body into a pooled buffer of at least `byteCount` bytes, copying what arrived so
    /// far; called once it is known (Content-Length) or seen (growth) to be large.
    private func usePooledBuffer(atLeast byteCount: Int) {
        let buffer = bodyPool.take(atLeast: byteCount)
        if let old = pooledBody {
            buffer.pointer.copyMemory(from: old.pointer, byteCount: pooledCount)
            bodyPool.give(old)
        } else {
            body.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { buffer.pointer.copyMemory(from: base, byteCount: bytes.count) }
            }
            pooledCount = body.count
            body = Data()
        }
        pooledBody = buffer
    }

    // MARK: Callbacks (curl thread, inside curl_multi_perform)

    /// Copies one header line. Only bytes are copied here; parsing waits for the awaiting task.
    /// A status line starts a new block, so interim responses (100 Continue) are dropped.
    func receiveHeader(_ line: UnsafeRawBufferPointer) -> Int {
        headerByteCount += line.count
        guard headerByteCount <= maximumHeaderBytes else {
            exceededLimit = CurlError(
                kind: .headersTooLarge, curlCode: 0,
                message: "the response headers exceed the limit of \(maximumHeaderBytes) bytes (Policies.maximumHeaderBytes)"
            )
            return 0
        }
        if line.count >= 5, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"),
           line[2] == UInt8(ascii: "T"), line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/") {
            headerBytes.removeAll(keepingCapacity: true)
        }
        // One allocation for a typical header block instead of a doubling series.
        if headerBytes.capacity == 0 { headerBytes.reserveCapacity(512) }
        headerBytes.append(contentsOf: line)
        return line.count
    }

    /// Called when the handle is configured: connecting counts as silence too, as it does for
    /// URLSession's `timeoutInterval`.
    func startIdleClock() {
        let now = ContinuousClock.now
        lastActivity = now
        bytesMoved = 0
        hasProgressed = false
    }

    /// The timeout this transfer has run past, if any: ``CurlRequestPlan/idleTimeout`` without
    /// a byte in either direction. The total deadline is a shared layer above the engine. The progress callback asks, and so
    /// does the event loop, a few times a second, for every transfer.
    ///
    /// libcurl 7.88 neither calls the progress callback nor checks `CURLOPT_TIMEOUT_MS` for a
    /// transfer queued behind `CURLMOPT_MAX_HOST_CONNECTIONS`: on its own, such a transfer waited
    /// for a free connection however long that took, then failed at once. URLSession's timeout
    /// runs while a task waits for a connection, and so does this one.
    func overdueError(at now: ContinuousClock.Instant) -> CurlError? {
        guard now - lastActivity > plan.idleTimeout else { return nil }
        let waiting = hasProgressed ? "" : ", waiting for a connection (at most \(maximumConnectionsPerHost) per host)"
        return CurlError(
            kind: .transfer, curlCode: Curl.Code.operationTimedOut,
            message: "no data received or sent for \(plan.idleTimeout.formattedSeconds)\(waiting)"
        )
    }

    /// Progress from libcurl (at least once a second while idle, thanks to the low-speed
    /// backstop): any bytes moved since the last call restart the idle clock; silence longer
    /// than the plan's idle timeout stops the transfer. Returns non-zero to abort. The only
    /// callback that reads the clock: the data callbacks run far more often and only count.
    func progress(downloaded: Int64, uploaded: Int64) -> Int32 {
        let now = ContinuousClock.now
        hasProgressed = true
        let moved = downloaded &+ uploaded &+ Int64(headerByteCount)
        if moved != bytesMoved {
            bytesMoved = moved
            lastActivity = now
            return 0
        }
        guard let error = overdueError(at: now) else { return 0 }
        timedOut = error
        return 1
    }

    /// Copies the next part of the request body into libcurl's upload buffer; 0 at the end.
    /// Read straight from the request's `Data`: no copy of the body is made beforehand, and
    /// libcurl copies only what it is about to send.
    func sendBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if let stream = plan.bodyStream {
            switch stream.read(into: buffer) {
            case .bytes(let count):
                uploadOffset += count
                return count
            case .end:
                return 0
            case .failed(let error):
                bodyStreamFailure = CurlError(
                    kind: .transfer, curlCode: Curl.Code.abortedByCallback,
                    message: "reading the request body stream failed: \(error.map { "\($0)" } ?? "no error given")"
                )
                return Curl.readAbort
            }
        }
        let body = plan.body
        let count = min(buffer.count, body.count - uploadOffset)
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        body.withUnsafeBytes { bytes in
            guard let source = bytes.baseAddress else { return }
            destination.copyMemory(from: source + uploadOffset, byteCount: count)
        }
        uploadOffset += count
        return count
    }

    /// Moves the upload back, which libcurl asks for when it resends the request on a fresh
    /// connection after a reused one turned out closed. Only absolute offsets are asked for.
    func seekBody(to offset: Int64, origin: Int32) -> Int32 {
        if plan.bodyStream != nil {
            // Sent bytes are gone: libcurl then fails with CURLE_SEND_FAIL_REWIND.
            return origin == SEEK_SET && offset == Int64(uploadOffset) ? Curl.seekOK : Curl.seekImpossible
        }
        guard origin == SEEK_SET, offset >= 0, offset <= Int64(plan.body.count) else { return Curl.seekFailed }
        uploadOffset = Int(offset)
        return Curl.seekOK
    }

    /// Appends decoded body bytes, stopping the transfer once they pass the limit.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if !hasReservedBody {
            hasReservedBody = true
            // Content-Length counts encoded bytes; for an identity body it is exact, for a
            // compressed one a lower bound, and either way capped by the limit.
            if let easy, let length = Curl.contentLength(easy) {
                let expected = Int(min(length, Int64(maximumResponseBytes)))
                if expected >= CurlBodyBufferPool.minimumCapacity {
                    usePooledBuffer(atLeast: expected)
                } else {
                    body.reserveCapacity(expected)
                }
            }
        }
        let received = pooledBody == nil ? body.count : pooledCount
        guard received + bytes.count <= maximumResponseBytes else {
            exceededLimit = CurlError(
                kind: .responseTooLarge, curlCode: 0,
                message: "the decoded body exceeds the limit of \(maximumResponseBytes) bytes (Policies.maximumResponseBytes)"
            )
            return 0
        }
        guard let base = bytes.baseAddress else { return bytes.count }
        if pooledBody == nil, received + bytes.count > CurlBodyBufferPool.minimumCapacity {
            // No (or a lower-bound) Content-Length and the body turned out large: double, as Data would.
            usePooledBuffer(atLeast: 2 * (received + bytes.count))
        }
        if let full = pooledBody, pooledCount + bytes.count > full.capacity {
            usePooledBuffer(atLeast: 2 * (pooledCount + bytes.count))
        }
        if let buffer = pooledBody {
            (buffer.pointer + pooledCount).copyMemory(from: base, byteCount: bytes.count)
            pooledCount += bytes.count
        } else {
            body.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        return bytes.count
    }

    /// CURLOPT_WRITEFUNCTION; `context` is the unretained transfer.
    static let bodyCallback: Curl.WriteCallback = { data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    /// CURLOPT_READFUNCTION; `context` is the unretained transfer.
    static let readCallback: Curl.ReadCallback = { data, size, count, context in
        guard let context, let data else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.sendBody(into: UnsafeMutableRawBufferPointer(start: data, count: size * count))
    }

    /// CURLOPT_SEEKFUNCTION; `context` is the unretained transfer.
    static let seekCallback: Curl.SeekCallback = { context, offset, origin in
        guard let context else { return Curl.seekFailed }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.seekBody(to: Int64(offset), origin: origin)
    }

    /// CURLOPT_XFERINFOFUNCTION; `context` is the unretained transfer.
    static let progressCallback: Curl.ProgressCallback = { context, _, downloaded, _, uploaded in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.progress(downloaded: Int64(downloaded), uploaded: Int64(uploaded))
    }

    /// CURLOPT_HEADERFUNCTION; `context` is the unretained transfer.
    static let headerCallback: Curl.WriteCallback = { data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
    }
}
