#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Courier
import CourierCurl
import CourierWebSocket
import Foundation

/// `courier ws URL`: a WebSocket between the terminal and a server. Each line of stdin goes out
/// as a text message (with `--binary`, each piece as it is read as a binary one), each message
/// from the server comes out on stdout as it arrives, and the end of stdin closes with 1000.
/// Failures exit with `courier request`'s codes; a close the server meant as a failure with
/// ``CurlExitCode/webSocketClosed``.
struct WebSocketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ws",
        abstract: "Open a WebSocket: send stdin's lines as messages, write the server's to stdout.",
        discussion: helpText
    )

    @Argument(help: ArgumentHelp("The ws or wss URL (http and https mean the same).", valueName: "url"))
    var url: String

    @Flag(help: "Send stdin as binary messages, one per piece as it is read (at most 64 KiB each), instead of a text message per line.")
    var binary = false

    @Option(name: .customLong("subprotocol"), help: ArgumentHelp("A subprotocol to offer in Sec-WebSocket-Protocol, most preferred first; repeatable. The server's choice is in -v's output.", valueName: "name"))
    var subprotocols: [String] = []

    @Option(name: .customLong("max-message-size"), help: ArgumentHelp("The largest message accepted from the server (default 16 MiB); a larger one closes the WebSocket with 1009 and exits 63.", valueName: "bytes"))
    var maxMessageSize: Int?

    @Flag(help: "Offer permessage-deflate (RFC 7692); a server that declines leaves messages uncompressed.")
    var compressed = false

    @Option(name: .customLong("close-timeout"), help: ArgumentHelp("How long to wait for the server's answer to the client's close, and then for it to end the connection (default 5; curl transport).", valueName: "seconds"))
    var closeTimeout: Double?

    @Option(name: .customLong("ping-interval"), help: ArgumentHelp("Send a ping every this many seconds, so that proxies and NATs keep an idle connection open.", valueName: "seconds"))
    var pingInterval: Double?

    @Option(name: .customShort("H"), help: ArgumentHelp("A header for the handshake, 'Name: value'; repeatable (values for one name are joined with \", \"). 'Name;' sends an empty value. The handshake's own fields (Upgrade, Sec-WebSocket-*) are not replaced.", valueName: "header"))
    var headers: [String] = []

    @Option(help: "curl or urlsession (default: COURIER_TRANSPORT, else curl).")
    var transport: TransportKind?

    @Option(name: [.customShort("m"), .customLong("max-time"), .customLong("timeout")], help: ArgumentHelp("Give up on the handshake after this many seconds in total; an open WebSocket lasts as long as it is used.", valueName: "seconds"))
    var maxTime: Double?

    @Option(name: .customLong("connect-timeout"), help: ArgumentHelp("Give up on the connection (with its proxy and TLS) after this many seconds (default 60; curl transport).", valueName: "seconds"))
    var connectTimeout: Double?

    @Flag(name: [.customShort("v"), .long], help: "Write the server's answer to the handshake and the close code to stderr.")
    var verbose = false

    @OptionGroup(title: "Proxies, Unix sockets and DNS overrides (curl transport only)")
    var route: RouteOptions

    @OptionGroup(title: "TLS (curl's flags)")
    var tls: TLSOptions

    func validate() throws {
        do {
            _ = try RequestURL.parse(url, schemes: RequestURL.webSocketSchemes)
        } catch {
            // curl's codes for a URL it cannot send, as `courier request` exits; the line names
            // the handshake's method, as every other failure's does.
            Terminal.errorLine(RequestURL.refusal(of: url, method: "GET", schemes: RequestURL.webSocketSchemes))
            throw ExitCode(RequestURL.curlExitCode(rejecting: url, schemes: RequestURL.webSocketSchemes))
        }
        if let maxMessageSize, maxMessageSize < 1 { throw ValidationError("--max-message-size must be 1 or more") }
        if let closeTimeout, !(closeTimeout > 0) { throw ValidationError("--close-timeout must be more than 0 seconds") }
        if let pingInterval, !(pingInterval > 0) { throw ValidationError("--ping-interval must be more than 0 seconds") }
        if let maxTime, !(maxTime > 0) { throw ValidationError("--max-time must be more than 0 seconds") }
        if let connectTimeout, !(connectTimeout > 0) { throw ValidationError("--connect-timeout must be more than 0 seconds") }
        // Resolved here so a bad COURIER_TRANSPORT is a usage error (64), not a failure to open.
        _ = try resolvedTransport()
        for header in headers { _ = try HeaderArgument(header) }
    }

    func run() async throws {
        let target = try RequestURL.parse(url, schemes: RequestURL.webSocketSchemes)
        // The URL every line on stderr names, as the close errors name it: the handshake's.
        let handshakeURL = WebSocket.httpForm(target)
        let transport: any HTTPTransport
        let socket: WebSocket
        do {
            transport = try makeTransport()
            socket = try await transport.webSocket(for: try makeRequest(target), options: options)
        } catch {
            throw ExitCode(Self.reportHandshake(error, url: handshakeURL))
        }
        if verbose { Terminal.writeError(Self.verboseLines(IncludedHead(socket.head).bytes)) }

        let inputFailure = Locked<StandardInputMessages.InputError?>(nil)
        let sender = Task { await Self.send(StandardInputMessages(binary: binary), over: socket, noting: inputFailure) }
        let pinger = pingInterval.map { interval in Task { await Self.ping(socket, every: interval) } }
        var status = await Self.receive(socket, url: handshakeURL)
        // The sender may still wait for stdin, which no cancellation ends; the tool exits anyway.
        sender.cancel()
        pinger?.cancel()
        if verbose, let code = socket.closeCode {
            let reason = socket.closeReason.map { $0.isEmpty ? "" : ": \($0)" } ?? ""
            Terminal.writeError("* closed with \(code)\(reason)\n")
        }
        if status == 0, let failure = inputFailure.withLock({ $0 }) {
            Terminal.errorLine("GET \(handshakeURL.redactedString): \(failure.description)")
            status = CurlExitCode.readError
        }
        // The socket lives on the transport's event loop, which ends when the transport goes.
        withExtendedLifetime(transport) {}
        if status != 0 { throw ExitCode(status) }
    }

    // MARK: The conversation

    /// Writes the server's messages to stdout until the WebSocket ends; the exit status.
    private static func receive(_ socket: WebSocket, url: URL) async -> Int32 {
        var messages = socket.messages.makeAsyncIterator()
        while true {
            let message: WebSocket.Message?
            do {
                message = try await messages.next()
            } catch let error as WebSocketCloseError {
                Terminal.errorLine(error.description)
                return CurlExitCode.webSocketClosed
            } catch {
                return report(error, url: url)
            }
            guard let message else { return 0 }
            do {
                try FileDescriptorOutput.writeAll(bytes(of: message), to: STDOUT_FILENO)
            } catch {
                // As with `courier request`'s body: a reader that went away (`| head`) chose to
                // stop, and needs no message; the server is told the client is going away.
                if !error.isBrokenPipe { Terminal.errorLine("cannot write to stdout: \(error.description)") }
                try? await socket.close(.goingAway)
                return Terminal.writeFailedStatus
            }
        }
    }

    /// Sends `input`'s messages in order, then closes with 1000 at its end, or when a line
    /// cannot be sent (noted in `inputFailure` first, so that it is there once the close ends
    /// the reading).
    private static func send(
        _ input: StandardInputMessages, over socket: WebSocket, noting inputFailure: Locked<StandardInputMessages.InputError?>
    ) async {
        do {
            for try await message in input {
                try await socket.send(message)
            }
        } catch let failure as StandardInputMessages.InputError {
            inputFailure.withLock { $0 = failure }
        } catch {
            // A send fails once the WebSocket closed or failed, which the reading reports.
            return
        }
        // The close fails only when the connection did, which the reading reports too.
        try? await socket.close()
    }

    private static func ping(_ socket: WebSocket, every interval: Double) async {
        do {
            while true {
                try await Task.sleep(for: .seconds(interval))
                _ = try await socket.ping()
            }
        } catch {
            // Cancelled, or the WebSocket ended, which the reading reports.
        }
    }

    /// Text with a newline after it, so that each message is a line; binary as its bytes.
    private static func bytes(of message: WebSocket.Message) -> Data {
        switch message {
        case .string(let text): Data((text + "\n").utf8)
        case .data(let data): data
        }
    }

    /// `head` as curl -v writes a response head: each line after "< ".
    private static func verboseLines(_ head: Data) -> String {
        String(decoding: head, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false).dropLast()
            .map { "< \($0)\n" }.joined()
    }

    /// ``report(_:url:)``, but for a status other than 101 the line `courier request --fail`
    /// writes for that status, and curl's 22, which curl exits with for a refused upgrade.
    private static func reportHandshake(_ error: any Error, url: URL) -> Int32 {
        guard let head = (error as? URLError)?.userInfo[WebSocket.refusedHeadKey] as? ResponseHead else {
            return report(error, url: url)
        }
        let kind = APIError.kind(forStatusCode: head.statusCode) ?? .unexpectedStatus(statusCode: head.statusCode)
        Terminal.errorLine(APIError(kind: kind, method: "GET", url: url, head: head).description)
        return CurlExitCode.httpError
    }

    /// Writes the line `courier request` writes for `error` and answers its exit status.
    private static func report(_ error: any Error, url: URL) -> Int32 {
        Terminal.errorLine(APIError(kind: RequestCommand.kind(of: error), method: "GET", url: url).description)
        return CurlExitCode.forFailure(error)
    }

    // MARK: The handshake

    private var options: WebSocket.Options {
        var options = WebSocket.Options(protocols: subprotocols)
        if let maxMessageSize { options.maximumMessageBytes = maxMessageSize }
        if compressed { options.compression = .permessageDeflate }
        if let closeTimeout { options.closeTimeout = closeTimeout }
        return options
    }

    private func makeRequest(_ target: URL) throws -> URLRequest {
        var request = URLRequest(url: target)
        request.setValue(RequestCommand.userAgent, forHTTPHeaderField: "User-Agent")
        // As `courier request` sets them: a value with CR or LF must reach the transport, to be refused.
        request.allHTTPHeaderFields = HeaderArgument.fields(try headers.map(HeaderArgument.init), over: request.allHTTPHeaderFields ?? [:])
        return request
    }

    /// The transport, refusing before anything is sent the flags URLSession cannot honour,
    /// with `courier request`'s words; and warning that `-k` turns verification off.
    private func makeTransport() throws -> any HTTPTransport {
        let transport = try resolvedTransport()
        let base = tls.curlConfiguration()
        if transport == .urlSession {
            if let refusal = tls.refusalOnURLSession(base) { throw refusal }
            if connectTimeout != nil {
                throw RequestError.unsupportedOption(
                    "bound the connection's setup (--connect-timeout)", transport: "URLSessionTransport", supportedBy: "CurlTransport")
            }
        }
        let curl = try route.curlConfiguration(for: transport, over: base)
        if tls.insecure { Terminal.errorLine(TLSOptions.insecureWarning) }
        var policies = Policies()
        policies.connectTimeout = connectTimeout
        if let maxTime { policies.totalDeadline = maxTime }
        return try transport.makeTransport(policies: policies, curl: curl)
    }

    /// `--transport`, else `COURIER_TRANSPORT`, else curl: unlike `courier request`, not the
    /// library's default, URLSession, which has no WebSockets on Linux.
    private func resolvedTransport() throws -> TransportKind {
        if let transport { return transport }
        guard let name = ProcessInfo.processInfo.environment[TransportKind.environmentVariable], !name.isEmpty else { return .curl }
        return try TransportKind.fromEnvironment()
    }
}
