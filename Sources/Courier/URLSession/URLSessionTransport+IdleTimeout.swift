#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Dispatch
import Foundation
import Synchronization

extension URLSessionTransport {
    /// Where the engine's own timers fire: not the delegate's queue, which a fast transfer can
    /// keep busy, nor the global pool, which blocking work elsewhere can fill.
    static let timerQueue = DispatchQueue(label: "Courier.URLSessionTransport.timers")

    /// The part of a request's idle timeout that FoundationNetworking cannot express.
    ///
    /// FoundationNetworking counts `timeoutInterval` in whole seconds (`Int(interval) * 1000`
    /// milliseconds), so 0.5 s times out at once and 1.5 s after one second. The engine hands it
    /// the interval rounded up to whole seconds (``sessionTimeout(for:)``) and, when the
    /// interval has a fraction, this timer enforces the exact one: it fires once nothing was
    /// received or sent for `interval`, as `CurlTransport`'s idle clock does.
    final class IdleTimeout: @unchecked Sendable {
        // @unchecked: `timer` is set once in init; DispatchSource's own methods are thread-safe.
        private let nanoseconds: UInt64
        private let lastActivity: Atomic<UInt64>
        private let timer: DispatchSourceTimer

        /// Starts the clock; `expired` runs at most once, on the timer's queue.
        init(interval: TimeInterval, expired: @escaping @Sendable () -> Void) {
            let nanoseconds = UInt64(max(0, interval) * 1_000_000_000)
            let now = DispatchTime.now().uptimeNanoseconds
            self.nanoseconds = nanoseconds
            lastActivity = Atomic(now)
            timer = DispatchSource.makeTimerSource(queue: URLSessionTransport.timerQueue)
            // One-shot schedules only: should this object go without a cancel, its timer fires
            // once more at most and finds nothing to do.
            timer.setEventHandler { [weak self] in
                guard let self else { return }
                let last = lastActivity.load(ordering: .relaxed)
                let now = DispatchTime.now().uptimeNanoseconds
                if now &- last >= nanoseconds {
                    timer.cancel()
                    expired()
                } else {
                    timer.schedule(deadline: DispatchTime(uptimeNanoseconds: last &+ nanoseconds), leeway: .milliseconds(1))
                }
            }
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: now &+ nanoseconds), leeway: .milliseconds(1))
            timer.activate()
        }

        /// Bytes moved: the silence starts again.
        func touch() {
            lastActivity.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        }

        /// Stops the clock for good.
        func cancel() {
            timer.cancel()
        }

        deinit {
            timer.cancel()
        }

        /// The timer for `exchange`'s request, started now, if its timeout has a fraction of a
        /// second; it stops the exchange once the silence lasts that long. Started when the
        /// exchange is, not when its task is: creating a task waits for FoundationNetworking's
        /// work queue, which other transfers can keep busy, and that wait counts as silence.
        static func start(for exchange: Exchange) -> IdleTimeout? {
            let interval = exchange.request.timeoutInterval
            guard isNeeded(for: interval) else { return nil }
            return IdleTimeout(interval: interval) { [weak exchange] in
                guard let exchange else { return }
                exchange.stop(with: URLError(.timedOut, "no data received or sent for \(interval.formattedSeconds)", url: exchange.request.url))
            }
        }

        /// The timeout FoundationNetworking gets for `interval`: whole seconds, never shorter.
        static func sessionTimeout(for interval: TimeInterval) -> TimeInterval {
            interval.rounded(.up)
        }

        /// Whether `interval` needs this timer: FoundationNetworking honours whole seconds itself.
        static func isNeeded(for interval: TimeInterval) -> Bool {
            interval.rounded(.up) != interval
        }
    }
}
