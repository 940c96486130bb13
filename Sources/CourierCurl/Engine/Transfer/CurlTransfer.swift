import Foundation
import Courier

/// The Swift side of one easy-handle transfer: its plan, its lifecycle (``CurlTransferState``,
/// the one record of where it is, which continuation waits and which handle runs it), and the
/// small values that take what libcurl's callbacks hand over (CurlTransfer+Callbacks.swift):
/// the head, the body (``CurlTransferBody``: collected or streamed, whichever the transfer was
/// made for), the upload, the idle clock and the measurements.
///
/// The lifecycle is under a lock, since the awaiting task submits and cancels from its own
/// thread; everything else is touched by the curl thread only (callbacks run there, inside
/// the calls that drive libcurl). The event loop holds a strong reference for as long as an easy handle
/// points at it (it is the `CURLOPT_PRIVATE`, `WRITEDATA` and `HEADERDATA` pointer), and drops it
/// only after the handle was removed from the multi handle.
final class CurlTransfer: @unchecked Sendable {
    typealias State = CurlTransferState<UnsafeContinuation<CurlTransferOutcome, any Error>, CurlEasyHandle>

    /// How a streamed body's reader reaches the transfer's loop: its buffer size, and what to do
    /// with each ``ResponseBodyStorage/ProducerAction`` the reader's events cause, given the
    /// transfer while it lives.
    struct StreamedBodyReader {
        var bufferSize: Int
        var producer: @Sendable (CurlTransfer, ResponseBodyStorage.ProducerAction) -> Void
    }

    let id: TransferID
    let plan: CurlRequestPlan
    private let lifecycle: Locked<State>
    /// The `CURLOPT_HTTPHEADER` list, kept alive for as long as the transfer runs.
    let headerList: CurlHeaderList
    /// The requests that share this one's per-host connection limit (see ``CurlAdmission``),
    /// worked out on the submitting task.
    let connectionGroup: String
    /// How many transfers of ``connectionGroup`` may run at once on this transfer's loop (see
    /// ``CurlAdmission/limit(_:scheme:connections:)``).
    let admissionLimit: Int
    /// Its place on one of several loops, given back when it ends, before whoever waits is
    /// told, so that a request sent right after it sees its loop free again.
    let lease: CurlLoopLease?
    /// The awaiting task runs on the loop's thread (it prefers the loop's executor), so the loop
    /// resumes it itself (see ``CurlEventLoop/resumeEndedTransfers()``).
    let awaitsOnLoop: Bool

    /// The handle this transfer ran on, when the pool did not keep it: let go first in
    /// `deinit`, while everything its options point into is still there.
    var retiredHandle: CurlEasyHandle?

    // MARK: Curl-thread state

    // Not checked for exclusivity at run time: the callbacks touch these many times per
    // request, always on the curl thread, and the checks were ~40 calls per small request
    // (see CurlEventLoop's state).

    /// The easy handle running this transfer, so the body callback can read Content-Length.
    @exclusivity(unchecked) var easy: Curl.EasyPointer?
    @exclusivity(unchecked) var head: CurlHeadCapture
    @exclusivity(unchecked) var body: CurlTransferBody
    @exclusivity(unchecked) var upload: CurlUpload
    @exclusivity(unchecked) var idleClock: CurlIdleClock
    @exclusivity(unchecked) var measurements = CurlTransferMeasurements()
    /// Set when a callback stopped the transfer (see ``CurlError/transferFailure(_:osErrno:stoppedFor:plan:duringBody:)``).
    @exclusivity(unchecked) var stopReason: CurlStopReason?

    /// `streamedBody` hands the head over as soon as it is complete and the body to a reader
    /// (see ``bodyStorage``); without it the body is collected. `connectionGroup` is the
    /// plan's, when the caller has worked it out already; `connections` is what the transfer's
    /// loop may hold to its host (see ``CurlAdmission/limit(_:scheme:connections:)``).
    init(
        id: TransferID, plan: CurlRequestPlan, headerList: CurlHeaderList,
        configuration: borrowing CurlTransport.Configuration, bodyPool: CurlBodyBufferPool, streamedBody: StreamedBodyReader? = nil,
        connectionGroup: String? = nil, connections: Int? = nil, lease: CurlLoopLease? = nil, awaitsOnLoop: Bool = false
    ) {
        self.lease = lease
        self.awaitsOnLoop = awaitsOnLoop
        self.id = id
        self.plan = plan
        self.headerList = headerList
        self.connectionGroup = connectionGroup ?? Self.connectionGroup(of: plan)
        admissionLimit = CurlAdmission<CurlTransfer>.limit(
            configuration, scheme: plan.scheme, connections: connections, multiplexes: plan.multiplexes
        )
        lifecycle = Locked(State(streams: streamedBody != nil))
        head = CurlHeadCapture(
            maximumBytes: configuration.policies.maximumHeaderBytes, streams: streamedBody != nil,
            watchesAltSvc: !configuration.altSvcCache.isOff
        )
        // A streamed body's storage reaches back to this transfer, so it is made once `self` is.
        body = streamedBody == nil
            ? .collected(CurlCollectedBody(maximumBytes: configuration.policies.maximumResponseBytes, pool: bodyPool))
            : .modifying
        upload = CurlUpload(plan: plan)
        idleClock = CurlIdleClock(timeout: plan.idleTimeout, maximumConnectionsPerHost: configuration.maximumConnectionsPerHost)
        if let streamedBody {
            // Weak: the transfer holds the storage, and the storage's reader may outlive the transfer.
            let storage = ResponseBodyStorage(bufferSize: streamedBody.bufferSize) { [weak self] action in
                if let self { streamedBody.producer(self, action) }
            }
            body = .streamed(CurlStreamedBody(pool: bodyPool), to: storage)
        }
    }

    deinit {
        retiredHandle = nil
        // A failed or abandoned transfer still owns its buffers.
        body.giveBackBuffer()
        upload.reader?.cancel()
    }

    /// The URL's scheme and authority as written, and the socket: as fine as the key libcurl
    /// counts `CURLMOPT_MAX_HOST_CONNECTIONS` by, or finer (an explicit default port, a user
    /// name, a proxy's targets), so that a group never holds more transfers than libcurl could
    /// run.
    ///
    /// Cut from the URL's bytes rather than assembled from its parts: each part Foundation
    /// hands out is a string of its own, and this runs for every request.
    static func connectionGroup(of plan: CurlRequestPlan) -> String {
        let origin = String(origin(of: plan.wireURL))
        guard let socket = plan.unixSocketPath else { return origin }
        return origin + " " + socket
    }

    /// The URL's scheme and authority as written: its text up to the path, the query or the
    /// fragment, sharing the URL's storage.
    static func origin(of url: URL) -> Substring {
        var text = url.absoluteString
        let end = text.withUTF8 { bytes in
            var end = bytes.count
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                // After "scheme://", the authority runs to the path, the query or the fragment.
                end = min(colon + 3, bytes.count)
                while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") {
                    end += 1
                }
            }
            return end
        }
        return text[..<text.utf8.index(text.utf8.startIndex, offsetBy: end)]
    }

    /// Where a streamed body goes, for its reader; nil when the body is collected. Not while a
    /// callback changes the body.
    var bodyStorage: ResponseBodyStorage? { body.storage }

    /// Sets the reader of a streamed upload; before the transfer is submitted.
    func streamUpload(from reader: UploadBodyReader) {
        upload.reader = reader
    }

    /// Where a streamed upload comes from; nil for a `Data` body or none.
    var uploadReader: UploadBodyReader? { upload.reader }

    /// Applies one lifecycle event under the lock.
    func withState<Result>(_ event: (inout State) -> Result) -> Result {
        lifecycle.withLock(event)
    }

    var phase: State.Phase { lifecycle.withLock { $0.phase } }

    /// What libcurl measured of the transfer, once it ended.
    var metrics: ExchangeMetrics? { measurements.final }

    /// Resumes the awaiting task, or ends a streamed body, as the notice says.
    func deliver(_ notice: State.Notice) {
        resumption(for: notice)?.resume()
    }

    /// Does what the notice asks of the transfer itself (its loop place given back, the
    /// exchange taken out, a streamed body ended) and returns what is left: resuming the
    /// awaiting task, which any thread may do once this has returned.
    func resumption(for notice: State.Notice) -> Resumption? {
        switch notice {
        case .head: break
        case .exchange, .failure, .bodyFinished, .bodyFailed: lease?.giveBack()
        }
        switch notice {
        case .exchange(let continuation):
            return Resumption(continuation: continuation, outcome: .success(.exchange(takeExchange())))
        case .head(let continuation):
            return Resumption(continuation: continuation, outcome: .success(.head(headerBytes: head.headerBytes, metrics: measurements.head)))
        // Read at the transfer's end, before the awaiting task is resumed (see recordMetrics).
        case .failure(let continuation, let error):
            return Resumption(continuation: continuation, outcome: .failure(carrying(metrics, on: error)))
        case .bodyFinished:
            bodyStorage?.finish(trailerFields: head.trailerFields, metrics: metrics)
            return nil
        case .bodyFailed(let error):
            bodyStorage?.fail(carrying(metrics, on: error), metrics: metrics)
            return nil
        }
    }

    /// The awaiting task's continuation with what it is to be resumed with.
    struct Resumption: Sendable {
        let continuation: UnsafeContinuation<CurlTransferOutcome, any Error>
        let outcome: Result<CurlTransferOutcome, any Error>

        func resume() {
            continuation.resume(with: outcome)
        }
    }

    /// Tells what ending the transfer asks for from outside the curl thread, where no handle
    /// may be touched: a transfer that never reached the curl thread has none.
    func deliverOffLoop(_ action: State.EndAction) {
        switch action {
        case .none: break
        case .notify(let notice), .remove(_, let notice): deliver(notice)
        }
    }

    /// Hands over what the callbacks collected.
    func takeExchange() -> CurlExchange {
        // A streamed transfer that ended before its head (libcurl saw none) has no body here.
        CurlExchange(headerBytes: head.takeHeaderBytes(), body: body.withCollected { $0.take() } ?? Data(), measured: measurements.end)
    }

    /// Keeps what libcurl measured of this transfer, with the decoded body bytes counted here;
    /// called once by the event loop when the transfer ends, before its handle runs another and
    /// before the awaiting task is resumed. `info` is nil when the transport reads no metrics;
    /// `finished` false when the transfer was stopped before libcurl finished it.
    func recordMetrics(_ info: Curl.TransferInfo?, finished: Bool) {
        measurements.recordEnd(info, decodedBodyBytes: body.byteCount, finished: finished, configuredAt: idleClock.configuredAt)
    }

    /// Called when the handle is configured (see ``CurlIdleClock``).
    func startIdleClock() {
        idleClock.handleConfigured(at: .now)
    }

    /// A paused direction goes on: the silence so far was not the server's.
    func restartIdleClock() {
        idleClock.restart(at: .now)
    }

    /// The timeout this transfer has run past, if any. The progress callback asks, and so does
    /// the event loop, a few times a second, for every transfer, since libcurl does not for a
    /// transfer it queues (see ``CurlIdleClock``).
    func overdueError(at now: ContinuousClock.Instant) -> CurlError? {
        idleClock.overdueError(at: now) { withState { $0.isPaused } }
    }
}
