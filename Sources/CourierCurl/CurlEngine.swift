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
/// to the wire: the connection pool (in the event loop), the body and header limits checked
/// while bytes arrive, content decoding and TLS. A value of references, so the layers over it
/// capture it without keeping the transport alive.
struct CurlEngine: Sendable {
    let configuration: CurlTransport.Configuration
    let loop: CurlEventLoop
    /// Recycled buffers for large bodies (see ``CurlBodyBufferPool``): enough idle memory for a
    /// full set of connections to one host to receive 1 MiB bodies twice over.
    let bodyPool: CurlBodyBufferPool
    /// Header lists by header set: most apps send a handful of distinct sets.
    let headerLists = CurlHeaderListCache(capacity: 64)
    let transferIDs = TransferIDs()

    init(configuration: CurlTransport.Configuration) throws(CurlError) {
        if let problem = RouteCheck.problem(with: configuration) {
            throw CurlError(kind: .option, curlCode: 0, message: problem)
        }
        self.configuration = configuration
        bodyPool = CurlBodyBufferPool(maximumIdleBytes: max(1, configuration.maximumConnectionsPerHost) * 2 * 1024 * 1024)
        loop = try CurlEventLoop(configuration: configuration)
    }

    // The three collected answers share one shape: the transfer is made, and the answer built
    // from its outcome, in synchronous functions kept out of line, so that each async frame
    // holds little more than the transfer while it waits (an inlined function's locals would
    // become the frame's). Every request in flight keeps its task's frames allocated; in a
    // burst of thousands that is what the process grows by.

    func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        let transfer = try collectingTransfer(for: request)
        return try Self.foundationAnswer(await perform(transfer), url: transfer.plan.url)
    }

    /// One exchange answered with Courier's own head: no Foundation response is built.
    func exchange(for request: URLRequest) async throws -> (Data, ResponseHead) {
        let transfer = try collectingTransfer(for: request)
        return try Self.exchangeAnswer(await perform(transfer), url: transfer.plan.url)
    }

    func response(for request: URLRequest) async throws -> CurlResponse {
        let transfer = try collectingTransfer(for: request)
        return try Self.collectedResponse(await perform(transfer), url: transfer.plan.url)
    }

    /// The transfer that sends `request` and collects the response's body.
    @inline(never)
    private func collectingTransfer(for request: URLRequest) throws -> CurlTransfer {
        try makeTransfer(plan(for: request, upload: nil), streamsBody: false)
    }

    @inline(never)
    private static func collectedResponse(_ outcome: CurlTransferOutcome, url: URL) throws -> CurlResponse {
        guard case .exchange(let exchange) = outcome,
              let response = CurlResponse(url: url, headerBytes: exchange.headerBytes, body: exchange.body, metrics: exchange.metrics)
        else {
            throw URLError(.badServerResponse, "the response has no valid status line", url: url)
        }
        return response
    }

    @inline(never)
    private static func exchangeAnswer(_ outcome: CurlTransferOutcome, url: URL) throws -> (Data, ResponseHead) {
        let response = try collectedResponse(outcome, url: url)
        return (response.body, response.head)
    }

    @inline(never)
    private static func foundationAnswer(_ outcome: CurlTransferOutcome, url: URL) throws -> (Data, URLResponse) {
        let response = try collectedResponse(outcome, url: url)
        guard let httpResponse = response.httpURLResponse else {
            throw URLError(.badServerResponse, "the response head could not be read", url: response.url)
        }
        return (response.body, httpResponse)
    }

    /// One exchange whose head is returned as soon as it is complete, with what libcurl measured
    /// up to it, and whose body is read as it arrives; the body's metrics are the whole
    /// exchange's once it has ended. `upload` is sent as libcurl asks for it.
    func stream(for request: URLRequest, uploading upload: UploadBody?) async throws -> (ResponseBody, ResponseHead) {
        let plan = try plan(for: request, upload: upload)
        let transfer = try makeTransfer(plan, streamsBody: true)
        let loop = self.loop
        // Weak: the transfer holds the storage, and the storage's reader may outlive the transfer.
        let storage = ResponseBodyStorage(bufferSize: configuration.streamBufferSize) { [weak transfer] action in
            guard let transfer else { return }
            switch action {
            case .resume: loop.resumeReceiving(transfer)
            case .cancel: loop.cancel(transfer, with: URLError(.cancelled, "the response body was cancelled", url: plan.url))
            case .pause: break
            }
        }
        transfer.streamBody(into: storage)
        let body = ResponseBody(storage)
        guard case .head(let headerBytes, let metrics) = try await perform(transfer),
              let response = CurlResponse(url: plan.url, headerBytes: headerBytes, body: Data(), metrics: metrics)
        else {
            throw URLError(.badServerResponse, "the response has no valid status line", url: plan.url)
        }
        return (body, response.head)
    }

    private func plan(for request: URLRequest, upload: UploadBody?) throws -> CurlRequestPlan {
        try request.validateForSending(uploading: upload)
        try Self.refuseBodyOnGET(request, upload: upload)
        let (url, socketRoute) = try Self.checkedURL(request)
        if Task.isCancelled { throw URLError(.cancelled, "the request was cancelled", url: url) }
        var plan = CurlRequestPlan(request: request, url: url, upload: upload, configuration: configuration)
        if let route = socketRoute {
            plan.wireURL = route.url
            plan.unixSocketPath = route.socketPath
        }
        return plan
    }

    private func makeTransfer(_ plan: CurlRequestPlan, streamsBody: Bool) throws -> CurlTransfer {
        let headerList = try headerLists.list(for: plan.headers)
        let transfer = CurlTransfer(
            id: transferIDs.next(), plan: plan, headerList: headerList, configuration: configuration,
            bodyPool: bodyPool, streamsBody: streamsBody
        )
        if let upload = plan.upload {
            let loop = self.loop
            transfer.streamUpload(from: UploadBodyReader(upload) { [weak transfer] in
                if let transfer { loop.resumeSending(transfer) }
            })
        }
        return transfer
    }

    /// One exchange on the curl thread; cancelling the task removes it from libcurl at once.
    private func perform(_ transfer: CurlTransfer) async throws -> CurlTransferOutcome {
        let loop = self.loop
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let (submit, refusal) = transfer.withState { $0.submit(continuation) }
                if submit {
                    loop.submit(transfer)
                } else {
                    transfer.resume(refusal)
                }
            }
        } onCancel: {
            loop.cancel(transfer, with: URLError(.cancelled, "the request was cancelled", url: transfer.plan.url))
        }
    }

    /// URLSession's answers for URLs it cannot send: no URL or no host → `.badURL`, a scheme
    /// other than http/https → `.unsupportedURL`.
    /// For an `http+unix` or `https+unix` URL, also the socket and the URL to send over it.
    private static func checkedURL(_ request: URLRequest) throws(URLError) -> (URL, (socketPath: String, url: URL)?) {
        guard let url = request.url else { throw URLError(.badURL, "the request has no URL", url: nil) }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            if url.namesUnixSocket {
                guard let route = url.unixSocketRoute else {
                    throw URLError(.badURL, "the \(url.scheme ?? "http+unix") URL names no socket path as its host", url: url)
                }
                return (url, route)
            }
            throw URLError(.unsupportedURL, "only http, https, http+unix and https+unix URLs are sent", url: url)
        }
        // Percent-encoded: only emptiness matters here, and decoding costs a microsecond a request.
        guard let host = url.host(percentEncoded: true), !host.isEmpty else {
            throw URLError(.badURL, "the URL has no host", url: url)
        }
        return (url, nil)
    }

    /// URLSession, on Darwin and Linux, refuses a GET that carries a body with
    /// `URLError(.dataLengthExceedsMaximum)` before sending anything; so does this engine, so
    /// that switching transports never changes what reaches a server.
    private static func refuseBodyOnGET(_ request: URLRequest, upload: UploadBody?) throws(URLError) {
        guard (request.httpMethod ?? "GET") == "GET",
              upload != nil || request.httpBodyStream != nil || !(request.httpBody ?? Data()).isEmpty
        else { return }
        throw URLError(.dataLengthExceedsMaximum, "a GET request cannot carry a body", url: request.url)
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
