import Foundation
#if canImport(Glibc)
import Glibc

private let streamSocket = Int32(SOCK_STREAM.rawValue)
private let closeDescriptor = Glibc.close
private let openSocket = Glibc.socket
#elseif canImport(Darwin)
import Darwin

private let streamSocket = SOCK_STREAM
private let closeDescriptor = Darwin.close
private let openSocket = Darwin.socket
#endif
import Synchronization

/// A port on 127.0.0.1 that refuses every connection for as long as it is held.
///
/// ```swift
/// let refusing = try await RefusingPort.open()
/// // GET refusing.url("/get") with the client under test: it must fail to connect.
/// try await refusing.close()
/// ```
///
/// The port of a server that has just shut down is not enough: while tests run in parallel, the
/// system may hand that port to the next server that starts, and a request meant to be refused
/// reaches it (or its shutdown) instead. This port is bound by a socket that never listens:
/// a connection attempt is refused, and the system gives the port to no other socket, listening
/// or connecting, until ``close()``. (The local end of an open connection, used before, once let a
/// request through: a reply came where a refusal was expected.)
public final class RefusingPort: Sendable {
    /// The port that refuses connections.
    public let port: Int
    /// `http://127.0.0.1:port`, with no trailing slash.
    public let baseURL: URL
    /// The bound socket; nil once closed.
    private let socket: Mutex<Int32?>

    private init(port: Int, baseURL: URL, socket: Int32) {
        self.port = port
        self.baseURL = baseURL
        self.socket = Mutex(socket)
    }

    deinit {
        release()
    }

    /// Binds a socket to a free port on 127.0.0.1 and never listens on it.
    ///
    /// - Throws: `POSIXError` when no socket can be bound, ``TestServerError/noLocalAddress``
    ///   if the bound socket reports no port.
    public static func open() async throws -> RefusingPort {
        let descriptor = openSocket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // No SO_REUSEADDR: with it, another socket that sets it too (as every server does)
        // could bind the same port while this one does not listen.
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            _ = closeDescriptor(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        guard named == 0, port != 0, let baseURL = TestServer.makeBaseURL(host: "127.0.0.1", port: port) else {
            _ = closeDescriptor(descriptor)
            throw TestServerError.noLocalAddress
        }
        return RefusingPort(port: port, baseURL: baseURL, socket: descriptor)
    }

    /// The URL of `pathAndQuery` on the refusing port, built as ``TestServer/url(_:)`` builds it.
    public func url(_ pathAndQuery: String) -> URL {
        TestServer.url(pathAndQuery, on: baseURL)
    }

    /// Releases the port. Calling it again does nothing.
    public func close() async throws {
        release()
    }

    private func release() {
        if let descriptor = socket.withLock({ socket in defer { socket = nil }; return socket }) {
            _ = closeDescriptor(descriptor)
        }
    }
}
