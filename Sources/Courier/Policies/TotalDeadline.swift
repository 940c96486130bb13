#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The layer that fails a call with `URLError(.timedOut)` once it has taken `seconds` in total,
/// redirects included, however steadily the server sends.
///
/// `URLRequest.timeoutInterval` is the longest silence on both engines, so a server that sends
/// one byte a second holds a request for as long as it likes; this bound is what stops it. When
/// it passes, the exchange in flight is cancelled, so its connection and handle are released as
/// for any cancelled request. NaN, negative values and anything past
/// `URLRequest.maximumTimeoutInterval`, infinity included, mean no limit.
public func totalDeadline(_ seconds: TimeInterval) -> NetworkingLayer {
    guard seconds <= URLRequest.maximumTimeoutInterval, seconds >= 0 else { return { $0 } }
    let limit = Duration.milliseconds(Int64((seconds * 1000).rounded(.up)))
    return { send in
        { request in
            try await withThrowingTaskGroup(of: Exchange?.self) { group in
                group.addTask { Exchange(try await send(request)) }
                group.addTask {
                    // A cancelled sleep (the exchange finished first) must not look like expiry.
                    try? await Task.sleep(for: limit)
                    return nil
                }
                defer { group.cancelAll() }
                // Whichever child finishes first decides; the other is cancelled on the way out.
                guard let first = try await group.next(), let exchange = first else {
                    try Task.checkCancellation(url: request.url)
                    throw URLError(.timedOut, "the total deadline of \(seconds.formattedSeconds) passed before the response was complete", url: request.url)
                }
                return (exchange.data, exchange.response)
            }
        }
    }
}

/// A finished exchange as one value a child task can return.
private struct Exchange: @unchecked Sendable {
    // @unchecked: URLResponse is immutable once built but not declared Sendable on every platform.
    var data: Data
    var response: URLResponse

    init(_ exchange: (Data, URLResponse)) {
        (data, response) = exchange
    }
}

extension TimeInterval {
    /// "1 s", "0.5 s", "60 s": how a duration reads in an error message.
    package var formattedSeconds: String {
        let rounded = (self * 1000).rounded() / 1000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}

extension Duration {
    /// "1 s", "0.5 s", "60 s": how a duration reads in an error message.
    package var formattedSeconds: String {
        (Double(components.seconds) + Double(components.attoseconds) / 1e18).formattedSeconds
    }
}
