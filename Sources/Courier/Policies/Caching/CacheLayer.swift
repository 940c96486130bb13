#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The cache (``Policies/cache``) as a layer: on every hop, a request is answered from `cache`
/// when what is stored allows it, revalidated when stale, and what comes back is stored.
///
/// It sits inside the cookie layer, so that a `Vary: Cookie` sees the cookies sent, and outside
/// response validation and the ``Policies/hopLayers``, so that nothing malformed is stored and
/// an answer from the cache reaches no layer meant for the network.
func cacheLayer<Body: ExchangeBody, Head: ExchangeHead>(_ cache: HTTPCache) -> ExchangeLayer<Body, Head> {
    ExchangeLayer { next in
        { request, upload in
            var exchange = CacheExchange(request: CacheRequest(request), usesHeuristicFreshness: cache.usesHeuristicFreshness)
            let entries = exchange.request.key.map(cache.store.entries(for:)) ?? []
            var action = exchange.lookUp(entries, now: cache.now())
            while true {
                switch action {
                case .answer(let entry, let age):
                    var metrics = ExchangeMetrics()
                    metrics.source = .cache
                    if let answer: (Body, Head) = cache.answer(with: entry, fields: CacheExchange.answeredFields(entry.response, age: age), metrics: metrics) {
                        return answer
                    }
                    action = exchange.storedBodyMissing()
                case .gatewayTimeout:
                    return try gatewayTimeout(for: request)
                case .revalidate(_, let fields):
                    var conditional = request
                    for field in fields { conditional.setValue(field.value, forHTTPHeaderField: field.name) }
                    return try await cache.send(conditional, upload, original: request, through: next, exchange: &exchange)
                case .forward:
                    return try await cache.send(request, upload, original: request, through: next, exchange: &exchange)
                }
            }
        }
    }
}

extension HTTPCache {
    /// Sends `request` through `next` and applies what `exchange` says of the answer.
    fileprivate func send<Body: ExchangeBody, Head: ExchangeHead>(
        _ request: URLRequest, _ upload: RequestBody?, original: URLRequest, through next: Exchange<Body, Head>,
        exchange: inout CacheExchange
    ) async throws -> (Body, Head) {
        let requestTime = now()
        let (body, head) = try await next(request, upload)
        guard let network = head.responseHead else { return (body, head) }
        let response = CacheExchange.NetworkResponse(
            statusCode: network.statusCode, headerFields: Array(network.headerFields), url: network.url ?? request.url,
            httpVersion: network.httpVersion, requestTime: requestTime, responseTime: now()
        )
        switch exchange.received(response) {
        case .store(let stored, let variant):
            guard let key = exchange.request.key,
                let writer = store.beginStoring(stored, for: key, variant: variant, expectedLength: Int(network.headerFields["Content-Length"] ?? ""))
            else { return (body, head) }
            return (body.storing(into: writer), head)
        case .freshen(let entry, let updated):
            store.update(entry, to: updated)
            var metrics = network.metrics
            metrics.source = .revalidated
            var freshened = entry
            freshened.response = updated
            if let answer: (Body, Head) = answer(with: freshened, fields: CacheExchange.answeredFields(updated, age: 0), metrics: metrics) {
                return answer
            }
            return try await send(original, upload, original: original, through: next, exchange: &exchange)
        case .resendUnconditionally:
            return try await send(original, upload, original: original, through: next, exchange: &exchange)
        case .invalidate(let keys):
            for key in keys { store.remove(key) }
            return (body, head)
        case .pass:
            return (body, head)
        }
    }

    /// The stored `entry` as an answer with `fields`, or nil when its body cannot be read.
    fileprivate func answer<Body: ExchangeBody, Head: ExchangeHead>(
        with entry: CacheEntry, fields: [HeaderField], metrics: ExchangeMetrics
    ) -> (Body, Head)? {
        let stored = entry.response
        let url = URL(string: stored.url)
        guard let reader = store.openBody(of: entry), let body = Body.stored(reader, url: url, metrics: metrics) else { return nil }
        let head = ResponseHead(
            statusCode: stored.statusCode, headerFields: HeaderFields(fields), url: url,
            httpVersion: HTTPVersion(major: stored.httpVersionMajor, minor: stored.httpVersionMinor), metrics: metrics
        )
        return Head.answering(head).map { (body, $0) }
    }
}

/// §5.2.1.7: `only-if-cached` with nothing usable stored is answered 504 without a request.
private func gatewayTimeout<Body: ExchangeBody, Head: ExchangeHead>(for request: URLRequest) throws -> (Body, Head) {
    var metrics = ExchangeMetrics()
    metrics.source = .cache
    let head = ResponseHead(statusCode: 504, headerFields: ["Content-Length": "0"], url: request.url, metrics: metrics)
    guard let answer = Head.answering(head), let body = Body.stored(EmptyStoredBody(), url: request.url, metrics: metrics) else {
        throw URLError(.resourceUnavailable, "nothing usable is stored and the request allows only an answer from the cache", url: request.url)
    }
    return (body, answer)
}

/// The body of an answer made up by the cache: empty.
private struct EmptyStoredBody: CacheBodyReader {
    func read(upTo maximumBytes: Int) throws -> Data? { nil }
    func close() {}
}
