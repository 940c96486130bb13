#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The layer that follows redirects by `policy`, sending each hop through the layers below it.
///
/// Engines under it return every 3xx as a response, so this layer alone decides which redirects
/// are followed and what the next request carries (see ``RedirectPolicy``). The response it
/// returns is the last hop's; its `url` is where the chain ended.
///
/// - Throws: `URLError(.httpTooManyRedirects)` past ``RedirectPolicy/maximumRedirects``,
///   `URLError(.appTransportSecurityRequiresSecureConnection)` for an https→http redirect that
///   the policy does not allow, `URLError(.requestBodyStreamExhausted)` when a 307 or 308 would
///   need a body stream a second time, and whatever the layers below throw.
package func followingRedirects(_ policy: RedirectPolicy = RedirectPolicy()) -> NetworkingLayer {
    buffered(redirectLayer(policy))
}

/// The redirect layer (``Policies/redirects``) over either kind of body: each redirect is followed
/// on its head, and the body of a 3xx that is followed is dropped unread (a body still arriving
/// is cancelled).
/// The upload goes to the next hop by the rules that apply to `httpBody` (see
/// ``RedirectPolicy``). With `removingRetryField`, it first removes ``RetryPolicy/requestField``,
/// as the retry layer does, for policies that leave that layer out.
func redirectLayer<Body: ExchangeBody, Head: ExchangeHead>(
    _ policy: RedirectPolicy, removingRetryField: Bool = false
) -> ExchangeLayer<Body, Head> {
    ExchangeLayer { send in
        { request, upload in
            var walk = RedirectWalk(
                policy: policy, current: removingRetryField ? request.withoutRetryField() : request, currentUpload: upload
            )
            while true {
                let (body, response): (Body, Head)
                do {
                    (body, response) = try await send(walk.current, walk.currentUpload)
                } catch let error as URLError {
                    throw walk.failure(error)
                }
                if try walk.isAnswer(response) { return walk.answer(body, response) }
            }
        }
    }
}

/// Where a chain of redirects stands: the hop to send next, and what the hops so far measured.
///
/// Its decisions are synchronous and kept out of line, so that the layer's async frame, which
/// stays allocated for as long as a request is in flight, holds only this and the answer in
/// hand; with the decisions inlined it held their every temporary, ~5 KiB per request.
private struct RedirectWalk {
    let policy: RedirectPolicy
    var current: URLRequest
    var currentUpload: RequestBody?
    var redirects = 0
    var hops: [ExchangeMetrics] = []

    /// The error of a hop that failed, with what the engine measured of it after the hops
    /// before it.
    @inline(never)
    func failure(_ error: URLError) -> URLError {
        hops.isEmpty ? error : error.changingMetrics { $0.redirects = hops }
    }

    /// Whether `response` is the answer; when it is a redirect to follow, moves on to the hop
    /// it leads to.
    @inline(never)
    mutating func isAnswer<Head: ExchangeHead>(_ response: Head) throws -> Bool {
        guard let statusCode = response.httpStatusCode, RedirectPolicy.isRedirect(statusCode) else { return true }
        let location = response.fieldValue("Location")
        let decision = policy.decision(
            after: current, uploading: &currentUpload, statusCode: statusCode, location: location, redirectsSoFar: redirects
        )
        switch decision {
        case .deliver:
            return true
        case .follow(let next):
            try Task.checkCancellation(url: next.url)
            current = next
            redirects += 1
            if let metrics = response.hopMetrics { hops.append(metrics) }
            return false
        case .fail(let code, let message):
            throw URLError(code, message, url: current.url)
        }
    }

    /// The answer, carrying the metrics of the hops before it.
    @inline(never)
    func answer<Body: ExchangeBody, Head: ExchangeHead>(_ body: Body, _ response: Head) -> (Body, Head) {
        hops.isEmpty ? (body, response) : (body.redirected(after: hops), response.redirected(after: hops))
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws `URLError(.cancelled)`, the error both engines give for a cancelled request, when
    /// the current task is cancelled.
    static func checkCancellation(url: URL?) throws(URLError) {
        if isCancelled { throw URLError.cancelled(url: url) }
    }
}

extension URLError {
    /// A `URLError` that says what happened in words, since Foundation on Linux describes every
    /// code as "The operation could not be completed".
    package init(_ code: Code, _ message: String, url: URL?, underlying: (any Error)? = nil) {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        self.init(code, userInfo: info)
    }

    /// The error both engines end a request with when producing its streamed body threw
    /// `error`: `.unknown`, as URLError has no code for it, and the producer's words.
    package static func uploadFailed(_ error: any Error, url: URL?) -> URLError {
        URLError(.unknown, "producing the request body failed: \(error)", url: url, underlying: error)
    }

    /// The error both engines end a cancelled request with; `what` names what was cancelled
    /// when it is not the request itself (a body being read, for one).
    package static func cancelled(_ what: String = "the request was cancelled", url: URL?) -> URLError {
        URLError(.cancelled, what, url: url)
    }
}
