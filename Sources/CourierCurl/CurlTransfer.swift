import Foundation
import Courier

/// What one exchange produced: the raw header block of the final response, its decoded body,
/// and what libcurl measured of it.
struct CurlExchange: Sendable {
    var headerBytes: [UInt8]
    var body: Data
    /// Read once when the transfer ended (see ``CurlTransfer/recordMetrics(_:finished:)``).
    var metrics = ExchangeMetrics()
}

/// What the awaiting task gets back from the curl thread.
enum CurlTransferOutcome: Sendable {
    /// The transfer completed and its body was collected.
    case exchange(CurlExchange)
    /// The final response's head arrived, with what libcurl had measured up to it; the body
    /// streams through the transfer's reader.
    case head(headerBytes: [UInt8], metrics: ExchangeMetrics)
}

/// The Swift side of one easy-handle transfer: its plan, its lifecycle (``CurlTransferState``,
/// the one record of where it is, which continuation waits and which handle runs it), and the
/// bytes libcurl's callbacks hand over.
///
/// The lifecycle is under a lock, since the awaiting task submits and cancels from its own
/// thread; everything else is touched by the curl thread only (callbacks run there, inside
/// the calls that drive libcurl). The event loop holds a strong reference for as long as an easy handle
/// points at it (it is the `CURLOPT_PRIVATE`, `WRITEDATA` and `HEADERDATA` pointer), and drops it
/// only after the handle was removed from the multi handle.
final class CurlTransfer: @unchecked Sendable {
    typealias State = CurlTransferState<UnsafeContinuation<CurlTransferOutcome, any Error>, CurlEasyHandle>

    let id: TransferID
    let plan: CurlRequestPlan
    private let maximumResponseBytes: Int
    private let maximumHeaderBytes: Int
    private let maximumConnectionsPerHost: Int
    private let lifecycle: Locked<State>

    /// Where a streamed body goes; nil when the body is collected.
    private(set) var bodyStorage: ResponseBodyStorage?
    /// Where a streamed upload comes from; nil for a `Data` body or none.
    private(set) var uploadReader: UploadBodyReader?

    // MARK: Curl-thread state

    /// The easy handle running this transfer, so the body callback can read Content-Length.
    var easy: Curl.EasyPointer?
    /// Whether a streamed head reads libcurl's timings when it is handed over; off with the
    /// transport's metrics.
    var recordsMetrics = true
    /// The event loop's turn when the handle joined the multi handle (see
    /// ``CurlEventLoop/recordMetrics(of:handle:finished:)``).
    var startTurn: UInt64?
    /// The `CURLOPT_HTTPHEADER` list, kept alive for as long as the transfer runs.
    let headerList: CurlHeaderList
    /// The requests that share this one's per-host connection limit (see
    /// ``CurlEventLoop``'s admission), worked out on the submitting task.
    let connectionGroup: String
    /// How many transfers of ``connectionGroup`` may run at once (see
    /// ``CurlEventLoop/admissionLimit(_:scheme:)``).
    let admissionLimit: Int
    /// How much of the request body libcurl has read (see ``sendBody(into:)``).
    private var uploadOffset = 0
    private var headerBytes: [UInt8] = []
    private var headerByteCount = 0
    /// Streamed body bytes gathered since the last hand-over (see ``streamBody(_:to:)``).
    private var pending: CurlBodyBufferPool.Buffer?
    private var pendingCount = 0
    /// Whether the last piece of a streamed body filled libcurl's receive buffer, and whether
    /// a piece arrived since the last turn of the event loop (see ``flushStreamedBody(atTurnEnd:)``).
    private var lastPieceFilledReceiveBuffer = false
    private var receivedThisTurn = false
    /// A streamed body's head was handed to the awaiting task; header lines now are trailers.
    private(set) var headIsHandedOver = false
    private var trailerBytes: [UInt8] = []
    /// Small bodies grow here; see ``CurlBodyBufferPool/minimumCapacity``.
    private var body = Data()
    /// Large bodies are written here instead, and handed over without a copy.
    private var pooledBody: CurlBodyBufferPool.Buffer?
    private var pooledCount = 0
    private let bodyPool: CurlBodyBufferPool
    private var hasReservedBody = false
    /// What libcurl measured of the transfer, once it ended; nil before, or when it ended
    /// before libcurl ran it at all.
    private(set) var metrics: ExchangeMetrics?
    /// Decoded bytes of a streamed body handed to its reader, for ``metrics``.
    private var streamedBodyBytes = 0
    /// What libcurl had measured when a streamed body's head was handed over.
    private var headMetrics = ExchangeMetrics()
    /// Set when a callback stopped the transfer because a limit was passed.
    private(set) var exceededLimit: CurlError?
    /// Set when producing a streamed upload (`URLRequest.httpBodyStream` included) failed and
    /// the read callback stopped the transfer.
    private(set) var bodyStreamFailure: CurlError?
    /// Set when the progress callback stopped the transfer past a timeout (see
    /// ``overdueError(at:)``).
    private(set) var timedOut: CurlError?
    /// Set when the transfer is made, on the submitting task; see ``startIdleClock()``.
    private var lastActivity = ContinuousClock.now
    /// When the handle was configured for this transfer, which libcurl's times count from.
    private var configuredAt: ContinuousClock.Instant?
    /// Whether libcurl has called the progress callback yet: it does not while the transfer
    /// waits in its queue for a free connection.
    private var hasProgressed = false
    /// Bytes seen by the last progress call: body both ways plus header bytes, so a server
    /// trickling headers is not silent either.
    private var bytesMoved: Int64 = 0

    /// `streamsBody` hands the head over as soon as it is complete and the body to a reader
    /// (see ``streamBody(into:)``); otherwise the body is collected.
    init(
        id: TransferID, plan: CurlRequestPlan, headerList: CurlHeaderList,
        configuration: CurlTransport.Configuration, bodyPool: CurlBodyBufferPool, streamsBody: Bool = false
    ) {
        self.id = id
        self.plan = plan
        self.headerList = headerList
        connectionGroup = Self.connectionGroup(of: plan)
        admissionLimit = CurlEventLoop.admissionLimit(configuration, scheme: plan.url.scheme)
        self.bodyPool = bodyPool
        lifecycle = Locked(State(streams: streamsBody))
        maximumResponseBytes = max(0, configuration.policies.maximumResponseBytes)
        maximumHeaderBytes = max(0, configuration.policies.maximumHeaderBytes)
        maximumConnectionsPerHost = max(1, configuration.maximumConnectionsPerHost)
    }

    deinit {
        // A failed or abandoned transfer still owns its buffer.
        if let pooledBody { bodyPool.give(pooledBody) }
        if let pending { bodyPool.give(pending) }
        uploadReader?.cancel()
    }

    /// Scheme, host, port and socket: as fine as the key libcurl counts
    /// `CURLMOPT_MAX_HOST_CONNECTIONS` by, or finer (an explicit default port, a proxy's
    /// targets), so that a group never holds more transfers than libcurl could run.
    static func connectionGroup(of plan: CurlRequestPlan) -> String {
        let url = plan.wireURL
        return "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port ?? -1) \(plan.unixSocketPath ?? "")"
    }

    /// Sets where a streamed body goes; before the transfer is submitted.
    func streamBody(into storage: ResponseBodyStorage) {
        bodyStorage = storage
    }

    /// Sets the reader of a streamed upload; before the transfer is submitted.
    func streamUpload(from reader: UploadBodyReader) {
        uploadReader = reader
    }

    /// Applies one lifecycle event under the lock.
    func withState<Result>(_ event: (inout State) -> Result) -> Result {
        lifecycle.withLock(event)
    }

    var phase: State.Phase { lifecycle.withLock { $0.phase } }

    /// Resumes the awaiting task and ends a streamed body as `action` says; the loop gives
    /// handles back itself.
    func resume(_ action: State.Action) {
        if let (continuation, resumption) = action.resume { resume(continuation, resumption) }
        if let (continuation, resumption) = action.violationResume { resume(continuation, resumption) }
        switch action.body {
        case .finish?: bodyStorage?.finish(trailerFields: trailerFields, metrics: metrics)
        case .fail(let error)?: bodyStorage?.fail(carrying(metrics, on: error), metrics: metrics)
        case nil: break
        }
    }

    private func resume(_ continuation: UnsafeContinuation<CurlTransferOutcome, any Error>, _ resumption: State.Resumption) {
        switch resumption {
        case .exchange: continuation.resume(returning: .exchange(takeExchange()))
        case .head: continuation.resume(returning: .head(headerBytes: headerBytes, metrics: headMetrics))
        // Read at the transfer's end, before the awaiting task is resumed (see recordMetrics).
        case .failure(let error): continuation.resume(throwing: carrying(metrics, on: error))
        }
    }

    /// Hands over what the callbacks collected.
    func takeExchange() -> CurlExchange {
        defer { headerBytes = []; body = Data() }
        if let pooledBody {
            self.pooledBody = nil
            return CurlExchange(
                headerBytes: headerBytes, body: bodyPool.data(pooledBody, count: pooledCount),
                metrics: metrics ?? ExchangeMetrics()
            )
        }
        return CurlExchange(headerBytes: headerBytes, body: body, metrics: metrics ?? ExchangeMetrics())
    }

    /// Keeps what libcurl measured of this transfer, with the decoded body bytes counted here;
    /// called once by the event loop when the transfer ends, before its handle runs another and
    /// before the awaiting task is resumed. `info` is nil when the transport reads no metrics.
    ///
    /// libcurl brings its total up to date when it finishes a transfer, and otherwise only when
    /// bytes move or its progress meter ticks, so a transfer stopped here before its end
    /// (`finished` false: cancelled, overdue, shut down) would report the total of its last
    /// tick; its total is then the time since the handle was configured, when that is longer.
    func recordMetrics(_ info: Curl.TransferInfo?, finished: Bool) {
        let decoded = bodyStorage != nil ? streamedBodyBytes : (pooledBody == nil ? body.count : pooledCount)
        guard let info else {
            var counted = ExchangeMetrics()
            counted.decodedBodyBytes = decoded
            metrics = counted
            return
        }
        var measured = ExchangeMetrics(info, decodedBodyBytes: decoded)
        if !finished, let configuredAt {
            measured.total = max(measured.total ?? .zero, ContinuousClock.now - configuredAt)
        }
        metrics = measured
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

    // MARK: Callbacks (curl thread, inside the calls that drive libcurl)

    /// Copies one header line. Only bytes are copied here; parsing waits for the awaiting task.
    /// A status line starts a new block, so interim responses (100 Continue) are dropped. When
    /// the body streams, the empty line that ends a final response's head hands the head over,
    /// and lines after it are the trailer section.
    func receiveHeader(_ line: UnsafeRawBufferPointer) -> Int {
        headerByteCount += line.count
        guard headerByteCount <= maximumHeaderBytes else {
            exceededLimit = CurlError(
                kind: .headersTooLarge, curlCode: 0,
                message: "the response headers exceed the limit of \(maximumHeaderBytes) bytes (Policies.maximumHeaderBytes)"
            )
            return 0
        }
        if headIsHandedOver {
            trailerBytes.append(contentsOf: line)
            return line.count
        }
        if line.count >= 5, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"),
           line[2] == UInt8(ascii: "T"), line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/") {
            headerBytes.removeAll(keepingCapacity: true)
        }
        // One allocation for a typical header block instead of a doubling series.
        if headerBytes.capacity == 0 { headerBytes.reserveCapacity(512) }
        headerBytes.append(contentsOf: line)
        if bodyStorage != nil, Self.isEmptyLine(line), let status = CurlResponseHead.statusLine(in: headerBytes),
           !(100...199).contains(status.code) {
            headIsHandedOver = true
            if recordsMetrics, let easy { headMetrics = ExchangeMetrics(headOf: Curl.transferInfo(easy)) }
            let action = withState { $0.headReceived() }
            resume(action)
            if action.violation != nil { return 0 }
        }
        return line.count
    }

    private static func isEmptyLine(_ line: UnsafeRawBufferPointer) -> Bool {
        (line.count == 2 && line[0] == 0x0D && line[1] == 0x0A) || (line.count == 1 && line[0] == 0x0A)
    }

    /// The trailer section's fields, joined as the head's are.
    private var trailerFields: [String: String] {
        guard !trailerBytes.isEmpty else { return [:] }
        return CurlResponseHead(bytes: Array("HTTP/1.1 200 \r\n".utf8) + trailerBytes)?.fields ?? [:]
    }

    /// Called when the handle is configured. The idle clock itself runs from the transfer's
    /// creation: waiting for a connection, in the event loop's queue or libcurl's, and
    /// connecting count as silence too, as they do for URLSession's `timeoutInterval`.
    func startIdleClock() {
        let now = ContinuousClock.now
        configuredAt = now
        bytesMoved = 0
        hasProgressed = false
    }

    /// A paused direction goes on: the silence so far was not the server's.
    func restartIdleClock() {
        lastActivity = ContinuousClock.now
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
        // Silence while paused is the reader's or the producer's, not the server's.
        if withState({ $0.isPaused }) {
            lastActivity = now
            return nil
        }
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
    /// libcurl copies only what it is about to send. A streamed upload is read from its buffer
    /// without waiting: when the producer is behind, sending pauses until it catches up.
    func sendBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if let uploadReader {
            switch uploadReader.read(into: buffer) {
            case .bytes(let count):
                uploadOffset += count
                return count
            case .wait:
                if withState({ $0.uploadStarved() }).violation != nil { return Curl.readAbort }
                return Curl.readPause
            case .end:
                return 0
            case .failed:
                let error = uploadReader.failure
                let reason = (error as? InputStreamReadError)?.description
                    ?? "producing the request body failed: \(error.map { "\($0)" } ?? "no error given")"
                bodyStreamFailure = CurlError(kind: .transfer, curlCode: Curl.Code.abortedByCallback, message: reason)
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
        plan.bodyObserver?(Int64(uploadOffset))
        return count
    }

    /// The request body's bytes for `CURLOPT_POSTFIELDS`, which libcurl reads in place: it
    /// copies them into its upload buffer without calling back into Swift for every 64 KiB,
    /// and rewinds on its own when it resends the request. Nil when the body goes through the
    /// read callback: a streamed upload, an observed one (its observer counts what the callback
    /// reads), and a body below ``borrowedBodyMinimum``.
    ///
    /// The pointer outlives `withUnsafeBytes`, which is sound only for a `Data` that keeps its
    /// bytes in heap storage, as every `Data` above 14 bytes does; this transfer's plan holds
    /// it, unmutated, for as long as the handle may read it (the handle clears the option when
    /// it is detached).
    func borrowedBody() -> UnsafeMutableRawPointer? {
        guard uploadReader == nil, plan.bodyObserver == nil, plan.body.count >= Self.borrowedBodyMinimum,
              case .withBody = plan.shape else { return nil }
        return plan.body.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
    }

    /// libcurl 7.88 sends a `CURLOPT_POSTFIELDS` body below 64 KiB inside the request's head
    /// and then counts it twice, in `CURLINFO_REQUEST_SIZE` and `CURLINFO_SIZE_UPLOAD`, which
    /// ``ExchangeMetrics/requestBytes`` adds up; smaller bodies take the read callback.
    static let borrowedBodyMinimum = 64 << 10

    /// Moves the upload back, which libcurl asks for when it resends the request on a fresh
    /// connection after a reused one turned out closed. Only absolute offsets are asked for.
    func seekBody(to offset: Int64, origin: Int32) -> Int32 {
        if uploadReader != nil {
            // Sent bytes are gone: libcurl then fails with CURLE_SEND_FAIL_REWIND.
            return origin == SEEK_SET && offset == Int64(uploadOffset) ? Curl.seekOK : Curl.seekImpossible
        }
        guard origin == SEEK_SET, offset >= 0, offset <= Int64(plan.body.count) else { return Curl.seekFailed }
        uploadOffset = Int(offset)
        return Curl.seekOK
    }

    /// Hands decoded body bytes to the reader of a streamed body: no limit applies, since the
    /// reader's buffer bounds memory. Once the buffer is full the bytes are refused with
    /// `CURL_WRITEFUNC_PAUSE`, which libcurl keeps and delivers again when unpaused.
    ///
    /// Pieces are gathered into one chunk per ``CurlBufferSizes/largeReceive``, or fewer bytes
    /// once the socket has nothing more (see ``flushStreamedBody(atTurnEnd:)``): each chunk
    /// handed over wakes a reader that keeps up.
    private func streamBody(_ bytes: UnsafeRawBufferPointer, to storage: ResponseBodyStorage) -> Int {
        if withState({ $0.receivePaused }) { return Curl.writePause }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return bytes.count }
        if let pending, pendingCount + bytes.count > pending.capacity {
            if !flush(to: storage) { return 0 }
        }
        let buffer = pending ?? bodyPool.take(atLeast: max(bytes.count, CurlBufferSizes.largeReceive))
        (buffer.pointer + pendingCount).copyMemory(from: base, byteCount: bytes.count)
        pending = buffer
        pendingCount += bytes.count
        streamedBodyBytes += bytes.count
        lastPieceFilledReceiveBuffer = bytes.count >= CurlBufferSizes.streamedReceive
        receivedThisTurn = true
        if pendingCount >= CurlBufferSizes.largeReceive, !flush(to: storage) { return 0 }
        return bytes.count
    }

    /// Hands the gathered piece of a streamed body to its reader; called by the event loop after
    /// each turn of libcurl (`atTurnEnd`) and before the transfer completes.
    ///
    /// At the end of a turn the piece is kept only while more is certain to follow at once: a
    /// read in this turn filled libcurl's receive buffer and the socket still holds unread
    /// bytes, so the loop's next poll returns straight away and libcurl reads them. Anything
    /// else goes now: a short read means the socket was drained, and a turn that brought this
    /// transfer nothing (an HTTP/2 connection busy with other streams) ends the wait. A reader
    /// that keeps up is woken once per gathered chunk rather than once per read, without any
    /// byte waiting for bytes that have not arrived.
    func flushStreamedBody(atTurnEnd: Bool = false) {
        let progressed = receivedThisTurn
        if atTurnEnd { receivedThisTurn = false }
        guard let bodyStorage, pending != nil else { return }
        let keeps = Self.keepsGatheredPiece(
            atTurnEnd: atTurnEnd, receivedThisTurn: progressed, lastReadFilledBuffer: lastPieceFilledReceiveBuffer,
            socketHoldsMore: easy.flatMap(Curl.activeSocket).map { Curl.hasUnreadBytes(socket: $0) } ?? false
        )
        if !keeps { _ = flush(to: bodyStorage) }
    }

    /// The rule of ``flushStreamedBody(atTurnEnd:)``: keep gathering only at the end of a turn
    /// that read a piece filling the receive buffer, while the socket holds more. The socket is
    /// asked (a system call) only when the rest holds.
    static func keepsGatheredPiece(
        atTurnEnd: Bool, receivedThisTurn: Bool, lastReadFilledBuffer: Bool, socketHoldsMore: @autoclosure () -> Bool
    ) -> Bool {
        atTurnEnd && receivedThisTurn && lastReadFilledBuffer && socketHoldsMore()
    }

    /// False when the transfer must stop (an impossible state, see ``CurlTransferState``).
    private func flush(to storage: ResponseBodyStorage) -> Bool {
        guard let buffer = pending else { return true }
        let chunk = bodyPool.data(buffer, count: pendingCount)
        pending = nil
        pendingCount = 0
        if !storage.write(chunk) {
            return withState({ $0.readerFull() }).violation == nil
        }
        return true
    }

    /// Appends decoded body bytes, stopping the transfer once they pass the limit.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if let bodyStorage { return streamBody(bytes, to: bodyStorage) }
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

    // The callbacks borrow the transfer rather than retain it for the call: the event loop holds
    // it for as long as its handle runs, and these run many times per request on the curl thread.

    /// CURLOPT_WRITEFUNCTION; `context` is the unretained transfer.
    static let bodyCallback: Curl.WriteCallback = { data, size, count, context in
        guard let context else { return 0 }
        let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
        return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.receiveBody(bytes) }
    }

    /// CURLOPT_READFUNCTION; `context` is the unretained transfer.
    static let readCallback: Curl.ReadCallback = { data, size, count, context in
        guard let context, let data else { return 0 }
        let buffer = UnsafeMutableRawBufferPointer(start: data, count: size * count)
        return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.sendBody(into: buffer) }
    }

    /// CURLOPT_SEEKFUNCTION; `context` is the unretained transfer.
    static let seekCallback: Curl.SeekCallback = { context, offset, origin in
        guard let context else { return Curl.seekFailed }
        return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef {
            $0.seekBody(to: Int64(offset), origin: origin)
        }
    }

    /// CURLOPT_XFERINFOFUNCTION; `context` is the unretained transfer.
    static let progressCallback: Curl.ProgressCallback = { context, _, downloaded, _, uploaded in
        guard let context else { return 0 }
        return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef {
            $0.progress(downloaded: Int64(downloaded), uploaded: Int64(uploaded))
        }
    }

    /// CURLOPT_HEADERFUNCTION; `context` is the unretained transfer.
    static let headerCallback: Curl.WriteCallback = { data, size, count, context in
        guard let context else { return 0 }
        let line = UnsafeRawBufferPointer(start: data, count: size * count)
        return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.receiveHeader(line) }
    }
}
