import Foundation
import Courier

/// Recycled memory for large response bodies.
///
/// Why: a fresh 1 MiB `malloc` per body is served by `mmap` and given back by `munmap` (or a heap
/// trim), so every body pays a page fault per 4 KiB on first write (Benchmarks/README.md, "Figures
/// behind the curl engine's comments"). A buffer that comes back here is already mapped and
/// faulted in.
///
/// Buffers are handed to callers as `Data(bytesNoCopy:count:deallocator: .custom)` whose
/// deallocator calls ``give(_:)``, so the pool refills on whatever thread drops the `Data`; hence
/// the lock. Capacities are powers of two, one free list per size, and the free lists together
/// hold at most ``maximumIdleBytes``: beyond that a returned buffer is freed, so a burst of huge
/// bodies does not pin its memory for the life of the process.
final class CurlBodyBufferPool: Sendable {
    /// A block of ``capacity`` bytes from the pool; give it back with ``CurlBodyBufferPool/give(_:)``.
    struct Buffer: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        let capacity: Int
    }

    /// Bodies below this stay in an ordinary growing `Data`: malloc serves them from its heap
    /// without page faults, and a pooled buffer's closure and bookkeeping would cost more.
    static let minimumCapacity = 64 * 1024
    /// Larger buffers are allocated and freed as before: rare, and too big to keep around.
    static let maximumPooledCapacity = 16 * 1024 * 1024

    private struct FreeLists {
        var bySize: [Int: [UnsafeMutableRawPointer]] = [:]
        var idleBytes = 0
    }

    let maximumIdleBytes: Int
    private let free = Locked(FreeLists())

    init(maximumIdleBytes: Int) {
        self.maximumIdleBytes = max(0, maximumIdleBytes)
    }

    deinit {
        free.withLock { lists in
            for pointers in lists.bySize.values { pointers.forEach { $0.deallocate() } }
        }
    }

    /// A buffer of at least `byteCount` bytes (rounded up to a power of two, at least
    /// ``minimumCapacity``), recycled when one of that size is idle.
    func take(atLeast byteCount: Int) -> Buffer {
        let capacity = Self.capacity(for: byteCount)
        if capacity <= Self.maximumPooledCapacity {
            let recycled = free.withLock { lists -> UnsafeMutableRawPointer? in
                guard let pointer = lists.bySize[capacity]?.popLast() else { return nil }
                lists.idleBytes -= capacity
                return pointer
            }
            if let recycled { return Buffer(pointer: recycled, capacity: capacity) }
        }
        return Buffer(pointer: .allocate(byteCount: capacity, alignment: 16), capacity: capacity)
    }

    /// Keeps `buffer` for reuse, or frees it when it is too large or the pool is full.
    func give(_ buffer: Buffer) {
        let kept = buffer.capacity <= Self.maximumPooledCapacity && free.withLock { lists -> Bool in
            guard lists.idleBytes + buffer.capacity <= maximumIdleBytes else { return false }
            lists.bySize[buffer.capacity, default: []].append(buffer.pointer)
            lists.idleBytes += buffer.capacity
            return true
        }
        if !kept { buffer.pointer.deallocate() }
    }

    /// `count` bytes at the start of `buffer` as `Data` without copying; dropping the last copy of
    /// that `Data` returns the buffer here.
    func data(_ buffer: Buffer, count: Int) -> Data {
        Data(bytesNoCopy: buffer.pointer, count: count, deallocator: .custom { [self] _, _ in
            self.give(buffer)
        })
    }

    static func capacity(for byteCount: Int) -> Int {
        let wanted = max(minimumCapacity, byteCount)
        guard wanted <= maximumPooledCapacity else { return wanted }
        return 1 << (Int.bitWidth - (wanted - 1).leadingZeroBitCount)
    }
}
