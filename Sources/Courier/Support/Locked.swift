#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `pthread_mutex_t`, for every lock Courier's modules hold.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer cannot see the futex-based
/// `Mutex` on Linux (it lives in the uninstrumented standard library) and reports every access
/// under it as a race, while it intercepts `pthread_mutex_*` and checks this lock properly.
///
/// The value and the mutex share one heap object (a `ManagedBuffer`, as SwiftNIO's lock does):
/// the engine makes one lock per request, and a separate allocation for the mutex doubled that.
/// Copies of a `Locked` share the value, as references to one object would.
package struct Locked<Value>: @unchecked Sendable {
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        deinit {
            // The header (the value) is destroyed with the object; the element is raw memory.
            withUnsafeMutablePointerToElements { mutex in
                pthread_mutex_destroy(mutex)
                mutex.deinitialize(count: 1)
            }
        }
    }

    private let storage: Storage

    package init(_ value: Value) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
    }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}
