import CourierTestServer
import NIOCore
import NIOPosix

/// A bare TCP connection that sends bytes exactly as written and parses responses by hand, so
/// these tests check the server's wire format rather than what a client library makes of it.
struct RawConnection {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    /// Received bytes not yet consumed by a read.
    private(set) var pending: [UInt8] = []

    /// Opens a connection to `server`, runs `body` with it and closes it.
    ///
    /// The connection is force-closed after `timeout`, which ends any pending read: a server
    /// that never answers fails the test instead of hanging it. 120 s, the hang limit of the
    /// suites that can see `TestRun`: with the whole package's suites running in parallel on 2
    /// cores, 5 s cut healthy exchanges short, and a sanitizer run is slower still.
    static func with<Result: Sendable>(
        _ server: TestServer,
        timeout: TimeAmount = .seconds(120),
        _ body: (inout RawConnection) async throws -> Result
    ) async throws -> Result {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: server.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let rawChannel = channel.channel
        let watchdog = rawChannel.eventLoop.scheduleTask(in: timeout) { rawChannel.close(promise: nil) }
        defer { watchdog.cancel() }
        return try await channel.executeThenClose { inbound, outbound in
            var connection = RawConnection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            return try await body(&connection)
        }
    }

    private init(
        inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) {
        self.inbound = inbound
        self.outbound = outbound
    }

    func send(_ text: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
    }

    /// Reads one response. `isHead` says the request was HEAD, so no body follows the headers.
    mutating func readResponse(isHead: Bool = false) async throws -> RawResponse {
        var response = try await readHead()
        if isHead || [204, 304].contains(response.status) {
            return response
        }
        if response.value("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let line = try await readLine()
                guard let size = Int(line.prefix { $0 != ";" }, radix: 16) else {
                    throw Failure(description: "bad chunk size line \(line)")
                }
                if size == 0 {
                    while try await !readLine().isEmpty {}  // trailers
                    return response
                }
                response.chunkSizes.append(size)
                response.body += try await read(count: size)
                guard try await readLine().isEmpty else { throw Failure(description: "chunk not followed by CRLF") }
            }
        }
        if let length = response.value("Content-Length").flatMap({ Int($0) }) {
            response.body = try await read(count: length)
        } else {
            response.body = try await readToEnd()
        }
        return response
    }

    /// Reads a status line and headers.
    mutating func readHead() async throws -> RawResponse {
        let statusLine = try await readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw Failure(description: "bad status line \(statusLine)")
        }
        var response = RawResponse(status: status)
        while true {
            let line = try await readLine()
            if line.isEmpty { return response }
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header \(line)") }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            response.headers.append((String(line[..<colon]), String(value)))
        }
    }

    /// Reads until the server closes the connection and returns everything not yet consumed.
    mutating func readToEnd() async throws -> [UInt8] {
        while try await receive() {}
        defer { pending = [] }
        return pending
    }

    /// Reads exactly `count` bytes, failing if the connection closes first.
    mutating func read(count: Int) async throws -> [UInt8] {
        while pending.count < count {
            guard try await receive() else {
                throw Failure(description: "connection closed after \(pending.count) of \(count) bytes")
            }
        }
        defer { pending.removeFirst(count) }
        return Array(pending.prefix(count))
    }

    private mutating func readLine() async throws -> String {
        var searchStart = 0
        while true {
            if pending.count >= 2, let cr = pending[searchStart...].indices.first(where: { index in
                index + 1 < pending.count && pending[index] == 13 && pending[index + 1] == 10
            }) {
                defer { pending.removeFirst(cr + 2) }
                return String(decoding: pending[..<cr], as: UTF8.self)
            }
            searchStart = max(pending.count - 1, 0)
            guard try await receive() else { throw Failure(description: "connection closed mid-line") }
        }
    }

    /// Appends the next received bytes; `false` once the server has closed the connection.
    private mutating func receive() async throws -> Bool {
        guard let buffer = try await inbound.next() else { return false }
        pending += buffer.readableBytesView
        return true
    }
}

/// A response as read off the wire.
struct RawResponse {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// The sizes of the chunks, for a chunked response.
    var chunkSizes: [Int] = []

    func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    func value(_ name: String) -> String? {
        values(name).first
    }
}
