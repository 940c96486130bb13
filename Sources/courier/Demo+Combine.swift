#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Courier
import CourierCombine
import CourierTestServer
import Foundation

extension Demo {
    /// Two publishers chained with `flatMap`, awaited through a `Promise`: the shape of a
    /// Combine caller. Returns the step's detail line.
    ///
    /// `flatMap` rather than `zip`: with `zip` of two `APIClient` publishers the process aborts
    /// on Linux. `TaskSubscription.deliver` sends the value and then `.finished` without
    /// rechecking cancellation; the value completes the `Zip`, which cancels and frees itself,
    /// and the `.finished` then reaches OpenCombine's child subscriber, whose `unowned` parent
    /// is gone.
    func combinePipeline(_ client: APIClient) async throws -> String {
        let pipeline = client.publisher(for: Request<Data>("bytes/32"))
            .map(\.count)
            .flatMap { count in
                client.publisher(for: Request<Echo>("anything?count=\(count)")).map(\.args)
            }
            .map { args in "second publisher saw count=\(args["count"]?.first ?? "?")" }
        let done = Promise<String>()
        let subscription = pipeline.sink { completion in
            if case .failure(let error) = completion { done.reject(with: error) }
        } receiveValue: { text in
            done.resolve(with: text)
        }
        // The subscription must outlive the wait, or cancelling it would cancel the requests.
        let text = try await done.future.value
        withExtendedLifetime(subscription) {}
        return text
    }
}
