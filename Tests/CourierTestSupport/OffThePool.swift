import Foundation

/// Runs blocking work (a child process to wait for, a server to stop) on a serial queue of its
/// own, which gets a thread even when the global pool is busy, rather than on one of the few
/// threads every test's tasks share: blocking those for the openssl runs of dozens of TLS tests
/// starved unrelated tests that time what they wait for.
package func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue(label: "CourierTestSupport.offThePool").async {
            continuation.resume(with: Result { try body() })
        }
    }
}
