import Foundation
import NIOCore
import NIOPosix

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
/// reaches it (or its shutdown) instead. This port is the local end of an open TCP connection
/// to a private ``TestServer``: nothing listens on it, so a connection attempt is refused, and
/// the system gives it to no other socket until ``close()``.
public final class RefusingPort: Sendable {
    /// The port that refuses connections.
    public let port: Int
    /// `http://127.0.0.1:port`, with no trailing slash.
    public let baseURL: URL

    private let holder: any Channel
    private let server: TestServer

    private init(port: Int, baseURL: URL, holder: any Channel, server: TestServer) {
        self.port = port
        self.baseURL = baseURL
        self.holder = holder
        self.server = server
    }

    deinit {
        holder.close(promise: nil)
    }

    /// Opens a connection to a private server and takes its local port.
    ///
    /// - Throws: ``TestServerError/noLocalAddress`` if the connection reports no local port, or
    ///   NIO's error if it cannot be made.
    public static func open() async throws -> RefusingPort {
        let server = try await TestServer.start()
        do {
            let holder = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: server.host, port: server.port)
                .get()
            guard let port = holder.localAddress?.port, let baseURL = TestServer.makeBaseURL(host: server.host, port: port)
            else {
                try? await holder.close()
                throw TestServerError.noLocalAddress
            }
            return RefusingPort(port: port, baseURL: baseURL, holder: holder, server: server)
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    /// The URL of `pathAndQuery` on the refusing port, built as ``TestServer/url(_:)`` builds it.
    public func url(_ pathAndQuery: String) -> URL {
        TestServer.url(pathAndQuery, on: baseURL)
    }

    /// Releases the port and stops the private server. Calling it again does nothing.
    public func close() async throws {
        do {
            try await holder.close()
        } catch ChannelError.alreadyClosed {
            // Closed by an earlier call, or by the server's side.
        }
        try await server.shutdown()
    }
}
