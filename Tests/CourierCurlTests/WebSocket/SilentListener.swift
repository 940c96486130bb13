#if os(Linux)
import Courier
import Foundation

/// A listening socket on 127.0.0.1 that never writes a byte: the kernel completes each TCP
/// handshake, so a TLS client gets connected, sends its hello and waits for an answer that never
/// comes. Polled, with no thread: ``poll()`` accepts what is waiting and tells how many of the
/// connections the client has closed, by reading each to its end.
final class SilentListener: Sendable {
    struct Counts: Equatable, Sendable {
        var accepted = 0
        var closedByClient = 0
    }

    let port: Int
    private let listener: Int32
    /// Accepted connections, and whether the client has closed each.
    private let connections = Locked<[Int32: Bool]>([:])

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard bound == 0, named == 0, listen(listener, 128) == 0 else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        stop()
        close(listener)
    }

    func url(scheme: String = "wss") -> URL {
        URL(string: "\(scheme)://127.0.0.1:\(port)/socket")!
    }

    /// Accepts the connections waiting, then reads each open one without blocking: the end of
    /// its bytes, or a reset, means the client closed it.
    func poll() -> Counts {
        connections.withLock { connections in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { break }
                connections[client] = false
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            for (client, closed) in connections where !closed {
                while true {
                    let count = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    if count > 0 { continue }
                    if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { break }
                    connections[client] = true
                    break
                }
            }
            return Counts(accepted: connections.count, closedByClient: connections.values.count { $0 })
        }
    }

    /// Closes every accepted connection.
    func stop() {
        connections.withLock { connections in
            for client in connections.keys { close(client) }
            connections = [:]
        }
    }
}

/// A port on 127.0.0.1 that nothing listens on: bound, then closed.
func refusingPort() throws -> Int {
    let listener = try SilentListener()
    let port = listener.port
    withExtendedLifetime(listener) {}
    return port
}

/// The names of this process's threads, as the kernel has them (at most 15 bytes each).
func threadNames() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task in
        (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
#endif
