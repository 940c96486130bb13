#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process's Foundation opens WebSockets, asked of Foundation itself once.
///
/// FoundationNetworking decides it when it is built, from the libcurl it was built against, and
/// says so only by failing a task with `URLError(.unsupportedURL)`; a platform check would
/// be wrong for a toolchain built either way. So a `URLSessionWebSocketTask` is sent to a
/// listening socket of this process's own on 127.0.0.1: a Foundation with WebSockets connects
/// to it, one without fails the task before connecting anywhere. Nothing reaches any server.
package enum FoundationWebSocketSupport {
    private static let answer = Locked<Task<Bool, Never>?>(nil)

    package static var isAvailable: Bool {
        get async {
            let task = answer.withLock { answer in
                if let answer { return answer }
                let task = Task.detached { probe() }
                answer = task
                return task
            }
            return await task.value
        }
    }

    /// How long to wait for either answer; a Foundation with WebSockets connects to loopback
    /// at once, one without fails the task at once.
    private static let patience: Duration = .seconds(10)

    private static func probe() -> Bool {
        guard let (listener, port) = listeningSocket() else { return false }
        defer { close(listener) }
        guard let url = URL(string: "ws://127.0.0.1:\(port)/") else { return false }
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.webSocketTask(with: url)
        task.resume()
        defer { task.cancel() }
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 20) > 0 { return true }
            if task.state == .completed, (task.error as? URLError)?.code == .unsupportedURL { return false }
        }
        return false
    }

    /// A listening TCP socket on 127.0.0.1 and its port.
    private static func listeningSocket() -> (Int32, UInt16)? {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && listen(descriptor, 1) == 0
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            return nil
        }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }
}
