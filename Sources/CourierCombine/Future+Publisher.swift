#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Courier

// `Future` alone is ambiguous here: Combine has one too. Courier's is always spelled in full.
extension Courier.Future {
    /// A publisher that emits this future's value once and finishes, or fails with its error.
    ///
    /// Every subscriber gets the same result, and subscribing after completion still delivers it,
    /// because the future keeps its result. Cancelling a subscription only stops that subscriber's
    /// wait: the future is shared, so its work carries on for other observers.
    ///
    /// Values arrive on a thread of Swift's global concurrent executor (the publisher is a
    /// ``TaskPublisher`` awaiting ``/Courier/Future/value``); use `receive(on:)` to hop to the main
    /// queue.
    public var publisher: AnyPublisher<Value, any Error> {
        TaskPublisher { try await self.value }.eraseToAnyPublisher()
    }
}
