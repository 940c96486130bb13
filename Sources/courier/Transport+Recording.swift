#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation
import Synchronization

/// What `-w` needs from each hop the policy layers send: the URL asked for and, on the curl
/// transport, the engine's metrics and HTTP version. As in curl, the hops are the last
/// attempt's; a retry starts them again and is counted.
final class ExchangeRecorder: Sendable {
    struct Hops {
        var count = 0
        var lastURL: URL?
        var metrics: [ExchangeMetrics] = []
        var httpVersion: String?
        /// Attempts made before the last one.
        var retries = 0
    }

    private let state = Mutex(Hops())

    var hops: Hops { state.withLock { $0 } }

    fileprivate func sending(_ url: URL?) {
        state.withLock { hops in
            hops.count += 1
            hops.lastURL = url
        }
    }

    /// Starts the hops of a new attempt, counting a retry when an attempt came before it.
    fileprivate func beginningAttempt() {
        state.withLock { hops in
            if hops.count > 0 { hops = Hops(retries: hops.retries + 1) }
        }
    }

    fileprivate func received(_ metrics: ExchangeMetrics, httpVersion: String) {
        state.withLock { hops in
            hops.metrics.append(metrics)
            hops.httpVersion = httpVersion
        }
    }
}

extension Transport {
    /// The same stack as ``makeNetworking(policies:urlSession:curl:)``, the policies over the
    /// transport's engine, with each hop the engine sends reported to `recorder`. On curl the
    /// engine is ``CurlTransport/response(for:)``, which carries the exchange's metrics;
    /// URLSession's engine has none to give.
    func makeRecordingNetworking(
        policies: Policies, curl: CurlTransport.Configuration = .init(), recorder: ExchangeRecorder
    ) throws -> Networking {
        let engine: Networking
        switch self {
        case .urlSession:
            var configuration = URLSessionTransport.Configuration()
            configuration.policies = policies
            let transport = URLSessionTransport(configuration: configuration)
            engine = { request in
                recorder.sending(request.url)
                return try await transport.engine(request)
            }
        case .curl:
            var configuration = curl
            configuration.policies = policies
            let transport = try CurlTransport(configuration: configuration)
            engine = { request in
                recorder.sending(request.url)
                let response = try await transport.response(for: request)
                recorder.received(response.metrics, httpVersion: response.httpVersion)
                guard let http = response.httpURLResponse else {
                    throw URLError(.badServerResponse, userInfo: [
                        NSLocalizedDescriptionKey: "the response head could not be read",
                        NSURLErrorFailingURLErrorKey: response.url,
                    ])
                }
                return (response.body, http)
            }
        }
        // The retry layer and those outside it are stacked here, in the order of
        // `Policies.layers`, so that the recorder learns where each attempt begins.
        var inner = policies
        inner.totalDeadline = nil
        inner.retries = .none
        var outer: [NetworkingLayer] = [describingErrors()]
        if let seconds = policies.totalDeadline { outer.append(totalDeadline(seconds)) }
        outer.append(retrying(policies.retries))
        outer.append { next in
            { request in
                recorder.beginningAttempt()
                return try await next(request)
            }
        }
        return layered(inner.apply(to: engine), outer)
    }
}
