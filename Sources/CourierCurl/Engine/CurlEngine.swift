#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Synchronization

/// One exchange on libcurl: what ``CurlTransport`` puts its shared policy layers over.
///
/// It sends one request and returns its response, whatever the status, a 3xx included: it
/// follows no redirects, keeps no cookies and has no total deadline. It holds what must sit next
/// to the wire: the connection pools (in the event loops), the body and header limits checked
/// while bytes arrive, content decoding and TLS. A value of references, so the layers over it
/// capture it without keeping the transport alive.
struct CurlEngine: Sendable {
    let configuration: CurlTransport.Configuration
    let loops: CurlEventLoopGroup
    /// Recycled buffers for large bodies (see ``CurlBodyBufferPool``): enough idle memory for a
    /// full set of connections to one host to receive 1 MiB bodies twice over.
    let bodyPool: CurlBodyBufferPool
    /// Header lists by header set: most apps send a handful of distinct sets.
    let headerLists = CurlHeaderListCache(capacity: 64)
    /// Connection groups by origin: most apps talk to a handful of hosts.
    let connectionGroups = CurlConnectionGroups(capacity: 64)
    let transferIDs = TransferIDs()

    /// The engine's two calls, for the transport to put its policies over.
    var engine: TransportEngine {
        TransportEngine(exchange: exchange(for:), stream: stream(for:uploading:))
    }

    init(configuration: CurlTransport.Configuration) throws(CurlError) {
        if let problem = RouteCheck.problem(with: configuration) {
            throw CurlError(kind: .option, curlCode: 0, message: problem)
        }
        if let unreadable = configuration.clientCertificate?.unreadableFileError() {
            throw unreadable
        }
        self.configuration = configuration
        bodyPool = CurlBodyBufferPool(maximumIdleBytes: max(1, configuration.maximumConnectionsPerHost) * 2 * 1024 * 1024)
        loops = try CurlEventLoopGroup(configuration: configuration)
    }

    // The collected answer is made, and built from the transfer's outcome, in synchronous
    // functions kept out of line, so that the async frame holds little more than the transfer
    // while it waits (an inlined function's locals would become the frame's). Every request in
    // flight keeps its task's frames allocated; in a burst of thousands that is what the
    // process grows by.

    /// One exchange answered with Courier's own head: no Foundation response is built.
    func exchange(for request: URLRequest) async throws -> (Data, ResponseHead) {
        let (transfer, loop) = try collectingTransfer(for: request)
        return try Self.exchangeAnswer(await perform(transfer, on: loop), url: transfer.plan.url)
    }

    /// The transfer that sends `request` and collects the response's body, and its loop.
    @inline(never)
    private func collectingTransfer(for request: URLRequest) throws -> (CurlTransfer, CurlEventLoop) {
        try makeTransfer(plan(for: request, upload: nil), streamsBody: false)
    }

    @inline(never)
    private static func exchangeAnswer(_ outcome: CurlTransferOutcome, url: URL) throws -> (Data, ResponseHead) {
        guard case .exchange(let exchange) = outcome,
              let response = CurlResponse(url: url, headerBytes: exchange.headerBytes, body: exchange.body, metrics: exchange.metrics)
        else {
            throw URLError(.badServerResponse, "the response has no valid status line", url: url)
        }
        return (response.body, response.head)
    }

    /// One exchange whose head is returned as soon as it is complete, with what libcurl measured
    /// up to it, and whose body is read as it arrives; the body's metrics are the whole
    /// exchange's once it has ended. `upload` is sent as libcurl asks for it.
    func stream(for request: URLRequest, uploading upload: RequestBody?) async throws -> (ResponseBody, ResponseHead) {
        let (transfer, loop) = try makeTransfer(plan(for: request, upload: upload), streamsBody: true)
        let url = transfer.plan.url
        guard let storage = transfer.bodyStorage else {
            throw CurlError(kind: .transfer, curlCode: 0, message: "internal error: a streamed transfer has no reader")
        }
        let body = ResponseBody(storage)
        guard case .head(let headerBytes, let metrics) = try await perform(transfer, on: loop),
              let response = CurlResponse(url: url, headerBytes: headerBytes, body: Data(), metrics: metrics)
        else {
            throw URLError(.badServerResponse, "the response has no valid status line", url: url)
        }
        return (body, response.head)
    }

    private func plan(for request: URLRequest, upload: RequestBody?) throws -> CurlRequestPlan {
        let target = try request.checkedForSending(uploading: upload, transport: "CurlTransport", sendsOverUnixSockets: true)
        if let refusal = configuration.httpVersion.refusal() {
            throw refusal
        }
        var plan = CurlRequestPlan(request: request, url: target.url, upload: upload, configuration: configuration)
        if plan.multiplexes, configuration.httpVersion == .http3, let altSvc = loops.altSvcFile, altSvc.announcesHTTP3(for: plan.url) {
            // libcurl 8.14 fails every transfer that waited, for a connection slot or for a
            // connection being opened to share, while a connection to an Alt-Svc alternative
            // was being opened ("QUIC: connection to <the URL's port> refused"), instead of
            // sending it. So requests to such an origin wait here instead, one per connection,
            // each reusing a connection once one is open: at most maximumConnectionsPerHost
            // in flight, and no request fails for having waited.
            plan.multiplexes = false
        }
        if let route = target.unixSocket {
            plan.wireURL = route.url
            plan.unixSocketPath = route.socketPath
        }
        return plan
    }

    /// The transfer for `plan`, and the loop it runs on from submission to its end.
    ///
    /// The plan is handed on to the transfer rather than copied: a copy retains each of its
    /// references, a dozen, on every request.
    private func makeTransfer(_ plan: consuming CurlRequestPlan, streamsBody: Bool) throws -> (CurlTransfer, CurlEventLoop) {
        let headerList = try headerLists.list(for: plan.headers)
        let group = connectionGroups.group(of: plan)
        let (loop, connections, lease) = loops.place(group: group, multiplexes: plan.multiplexes)
        var reader: CurlTransfer.StreamedBodyReader?
        if streamsBody {
            let url = plan.url
            reader = CurlTransfer.StreamedBodyReader(bufferSize: configuration.streamBufferSize) { transfer, action in
                switch action {
                case .resume: loop.resumeReceiving(transfer)
                case .cancel: loop.cancel(transfer, with: URLError.cancelled("the response body was cancelled", url: url))
                case .pause: break
                }
            }
        }
        let upload = plan.upload
        let transfer = CurlTransfer(
            id: transferIDs.next(), plan: plan, headerList: headerList, configuration: configuration,
            bodyPool: bodyPool, streamedBody: reader, connectionGroup: group, connections: connections, lease: lease,
            awaitsOnLoop: loop.isCurrentThread
        )
        if let upload {
            transfer.streamUpload(from: UploadBodyReader(upload) { [weak transfer] in
                if let transfer { loop.resumeSending(transfer) }
            })
        }
        return (transfer, loop)
    }

    /// One exchange on `loop`'s thread; cancelling the task removes it from libcurl at once.
    private func perform(_ transfer: CurlTransfer, on loop: CurlEventLoop) async throws -> CurlTransferOutcome {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                loop.submit(transfer, resuming: continuation)
            }
        } onCancel: {
            loop.cancel(transfer, with: URLError.cancelled(url: transfer.plan.url))
        }
    }
}

/// Numbers transfers in the order they are created.
final class TransferIDs: Sendable {
    private let last = Atomic<UInt64>(0)

    func next() -> TransferID {
        TransferID(rawValue: last.add(1, ordering: .relaxed).newValue)
    }
}

/// Identifies one exchange (one easy-handle transfer) inside one transport.
struct TransferID: Hashable, Comparable, Sendable, CustomStringConvertible {
    let rawValue: UInt64

    static func < (lhs: TransferID, rhs: TransferID) -> Bool { lhs.rawValue < rhs.rawValue }
    var description: String { "#\(rawValue)" }
}
