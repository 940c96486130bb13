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
/// for any cancelled request, and the error carries what the engine measured of it
/// (`URLError.exchangeMetrics`). NaN, negative values and anything past
/// `URLRequest.maximumTimeoutInterval`, infinity included, mean no limit.
package func totalDeadline(_ seconds: TimeInterval) -> NetworkingLayer {
    buffered(deadlineLayer(seconds))
}

/// The total deadline (``Policies/totalDeadline``) over either kind of body: the head races the
/// deadline as a buffered exchange does, and a body still arriving when it passes fails with the same error, so the
/// bound holds however slowly the body is read or sent.
package func deadlineLayer<Body: ExchangeBody, Head: ExchangeHead>(_ seconds: TimeInterval) -> ExchangeLayer<Body, Head> {
    guard seconds <= URLRequest.maximumTimeoutInterval, seconds >= 0 else { return ExchangeLayer { $0 } }
    let limit = Duration.milliseconds(Int64((seconds * 1000).rounded(.up)))
    return ExchangeLayer { send in
        { request, upload in
            let deadline = ContinuousClock.now + limit
            let url = request.url
            let expired: @Sendable () -> URLError = {
                URLError(.timedOut, "the total deadline of \(seconds.formattedSeconds) passed before the response was complete", url: url)
            }
            let (body, response) = try await withThrowingTaskGroup(of: Reply<Body, Head>?.self) { group in
                group.addTask { Reply(try await send(request, upload)) }
                group.addTask {
                    // A cancelled sleep (the exchange finished first) must not look like expiry.
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    return nil
                }
                defer { group.cancelAll() }
                // Whichever child finishes first decides; the other is cancelled on the way out.
                guard let first = try await group.next(), let reply = first else {
                    try Task.checkCancellation(url: url)
                    // The group waits for the cancelled exchange anyway: its error says what the
                    // engine measured before the deadline stopped it.
                    group.cancelAll()
                    var measured: ExchangeMetrics?
                    do {
                        _ = try await group.next()
                    } catch {
                        measured = (error as? URLError)?.exchangeMetrics
                    }
                    throw expired().carrying(measured)
                }
                return (reply.body, reply.response)
            }
            return (body.ending(at: deadline, with: expired), response)
        }
    }
}

/// A response head and its body as one value a child task can return.
private struct Reply<Body: Sendable, Head>: @unchecked Sendable {
    // @unchecked: a head is immutable once built; URLResponse is not declared Sendable on every platform.
    var body: Body
    var response: Head

    init(_ reply: (Body, Head)) {
        (body, response) = reply
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
