#if os(Linux)
internal import CEpoll
import Glibc

/// The one file that calls epoll: a wait set of descriptors, with an `eventfd` in it that any
/// thread can write to end a wait.
///
/// Everything but ``wake()`` is for one thread, the one that waits.
final class Epoll {
    /// What a wait found about one descriptor.
    struct Event: Equatable {
        var descriptor: Int32
        var readable: Bool
        var writable: Bool
        /// An error or a hang-up: reported whatever the descriptor was watched for.
        var failed: Bool
    }

    private let descriptor: Int32
    /// The `eventfd` that ends a wait; its events are taken by ``wait(timeoutMilliseconds:)``,
    /// never handed out.
    private let wakeDescriptor: Int32
    private var events: [epoll_event]
    private var isClosed = false

    /// `capacity`: events taken per wait; more stay in the set for the next one.
    init(capacity: Int) throws(CurlError) {
        events = Array(repeating: epoll_event(), count: max(1, capacity))
        descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else {
            wakeDescriptor = -1
            isClosed = true
            throw Self.systemError("epoll_create1")
        }
        wakeDescriptor = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        // Fully initialised from here: a throw runs deinit, which closes what was opened.
        guard wakeDescriptor >= 0 else { throw Self.systemError("eventfd") }
        guard control(EPOLL_CTL_ADD, wakeDescriptor, readable: true, writable: false) else {
            throw Self.systemError("epoll_ctl")
        }
    }

    deinit {
        close()
    }

    /// Starts watching `socket`, or changes what it is watched for. False when epoll refused.
    func watch(_ socket: Int32, readable: Bool, writable: Bool, isNew: Bool) -> Bool {
        // A descriptor closed and its number reused behind the caller's back can be in the set
        // or not whatever the caller believes: the other operation is tried when one fails.
        let (first, second) = isNew ? (EPOLL_CTL_ADD, EPOLL_CTL_MOD) : (EPOLL_CTL_MOD, EPOLL_CTL_ADD)
        return control(first, socket, readable: readable, writable: writable)
            || control(second, socket, readable: readable, writable: writable)
    }

    /// Stops watching `socket`; a descriptor already closed has left the set by itself.
    func unwatch(_ socket: Int32) {
        _ = epoll_ctl(descriptor, EPOLL_CTL_DEL, socket, nil)
    }

    /// Sleeps until a watched descriptor is ready, `timeoutMilliseconds` pass, or ``wake()``;
    /// returns how many events it found, read with ``event(at:)`` before the next wait.
    func wait(timeoutMilliseconds: Int32) throws(CurlError) -> Int {
        let count = events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(descriptor, buffer.baseAddress, Int32(buffer.count), timeoutMilliseconds)
        }
        guard count >= 0 else {
            if errno == EINTR { return 0 }
            throw Self.systemError("epoll_wait")
        }
        return Int(count)
    }

    /// The `index`th event of the last wait, or nil for a wake-up, which this takes.
    func event(at index: Int) -> Event? {
        let event = events[index]
        let socket = event.data.fd
        if socket == wakeDescriptor {
            var value: UInt64 = 0
            _ = read(wakeDescriptor, &value, MemoryLayout<UInt64>.size)
            return nil
        }
        let bits = event.events
        return Event(
            descriptor: socket, readable: bits & cepoll_in != 0, writable: bits & cepoll_out != 0,
            failed: bits & (cepoll_err | cepoll_hup) != 0
        )
    }

    /// Ends the current or next wait. Any thread; never after ``close()``.
    func wake() {
        var one: UInt64 = 1
        // A full counter (2^64 - 2 wake-ups unread) fails with EAGAIN and still ends the wait.
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
        if wakeDescriptor >= 0 { Glibc.close(wakeDescriptor) }
    }

    private func control(_ operation: Int32, _ socket: Int32, readable: Bool, writable: Bool) -> Bool {
        var event = epoll_event()
        event.events = (readable ? cepoll_in : 0) | (writable ? cepoll_out : 0)
        event.data.fd = socket
        return epoll_ctl(descriptor, operation, socket, &event) == 0
    }

    private static func systemError(_ call: String) -> CurlError {
        let code = errno
        return CurlError(kind: .multi, curlCode: 0, message: "\(call) failed: \(String(cString: strerror(code))) (errno \(code))")
    }
}
#endif
