#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension ResponseBody: ExchangeBody {
    package func describingErrors(for request: URLRequest) -> ResponseBody {
        mappingErrors { error in (error as? URLError)?.described(for: request) ?? error }
    }

    /// A timer ends the body at `deadline` unless it ended first. The timer holds the body only
    /// weakly and is cancelled when the body ends, so a body read to its end or dropped by its
    /// reader leaves no task behind and is not kept alive until the deadline.
    package func ending(at deadline: ContinuousClock.Instant, with error: @escaping @Sendable () -> URLError) -> ResponseBody {
        guard !isEnded else { return self }
        let terminate = weakTerminate
        let timer = Task {
            do {
                try await Task.sleep(until: deadline, clock: .continuous)
            } catch {
                return
            }
            terminate(error())
        }
        whenEnded { _ in timer.cancel() }
        return self
    }
}
