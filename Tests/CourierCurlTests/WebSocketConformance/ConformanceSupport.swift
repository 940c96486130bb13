#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestSupport
import CourierWebSocketTestSupport
import Foundation
import Testing

/// How the client's `messages` ended, as the public API says it.
enum Ending: Equatable, CustomStringConvertible {
    /// The sequence ended without an error.
    case normal
    /// It threw a ``WebSocketCloseError``.
    case closed(WebSocket.CloseCode, reason: String, byServer: Bool)
    /// It threw a `URLError` with this code.
    case failed(URLError.Code)
    /// It threw something else.
    case other(String)

    init(_ error: any Error) {
        switch error {
        case let error as WebSocketCloseError: self = .closed(error.code, reason: error.reason, byServer: error.closedByServer)
        case let error as URLError: self = .failed(error.code)
        default: self = .other(String(describing: error))
        }
    }

    var description: String {
        switch self {
        case .normal: "normal end"
        case .closed(let code, let reason, let byServer): "WebSocketCloseError(\(code), \"\(reason)\", byServer: \(byServer))"
        case .failed(let code): "URLError(\(code.rawValue))"
        case .other(let text): text
        }
    }
}

/// What the client read until its messages ended.
struct Reading {
    var messages: [WebSocket.Message] = []
    var ending = Ending.normal
    /// The error itself, for its description.
    var error: (any Error)?
}

/// Opens a WebSocket through the public API over a fresh `CurlTransport` to a server playing
/// `script`, runs `client` on it, then waits for the connection to end and hands back what the
/// client sent, after checking what every client frame must be: masked, and none after its
/// close frame.
///
/// The connection must end by itself: `client` closes, reads to the end, or the server ends it.
func conformanceCase(
    _ script: [ScriptedWebSocketServer.Step], answersPings: Bool = true, answersClose: Bool = true,
    framesWithHandshake: [WireFrame] = [], options: WebSocket.Options = .patient(),
    sourceLocation: SourceLocation = #_sourceLocation,
    client: (WebSocket, ScriptedWebSocketServer) async throws -> Void
) async throws -> ScriptedClientRecord {
    let server = try await ScriptedWebSocketServer.start(
        script, answersPings: answersPings, answersClose: answersClose, framesWithHandshake: framesWithHandshake)
    let transport = try CurlTransport()
    do {
        let socket = try await transport.webSocket(for: URLRequest(url: server.url), options: options)
        try await client(socket, server)
    } catch {
        await transport.shutdown()
        try await server.shutdown()
        throw error
    }
    let record = await server.connectionEnded()
    await transport.shutdown()
    try await server.shutdown()
    #expect(record.allMasked, "a client frame was not masked: \(record.frames)", sourceLocation: sourceLocation)
    #expect(
        record.framesAfterClose.isEmpty, "the client sent \(record.framesAfterClose) after its close frame",
        sourceLocation: sourceLocation)
    #expect(record.frames.allSatisfy { $0.rsv == 0 }, "a client frame had reserved bits set", sourceLocation: sourceLocation)
    #expect(record.trailingByteCount == 0, "the client's last frame was cut short", sourceLocation: sourceLocation)
    return record
}

extension WebSocket.Options {
    /// The default options but for a close timeout only a hang reaches: a case that is not about
    /// the timeout must not fail because a loaded machine (or a sanitizer) answered late.
    static func patient(maximumMessageBytes: Int = 16 << 20, idleTimeout: TimeInterval? = nil) -> Self {
        WebSocket.Options(
            maximumMessageBytes: maximumMessageBytes, idleTimeout: idleTimeout,
            closeTimeout: TimeInterval(TestRun.hangLimit.components.seconds))
    }
}

extension WebSocket {
    /// Reads every message until the sequence ends, sending each one back when `echoing`, as
    /// Autobahn|Testsuite's client does: its echo is what the server checks. A send that fails
    /// because the connection ended meanwhile is not an error here; the ending says why.
    func readToEnd(echoing: Bool = true) async -> Reading {
        var reading = Reading()
        do {
            for try await message in messages {
                reading.messages.append(message)
                if echoing { try? await send(message) }
            }
        } catch {
            reading.ending = Ending(error)
            reading.error = error
        }
        return reading
    }
}

/// `count` bytes of printable ASCII, so that the same payload serves as text and as binary.
func asciiPayload(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }
}

/// `count` bytes covering every value, for binary payloads.
func binaryPayload(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
}

extension WebSocket.Message {
    /// The message's bytes as they go on the wire.
    var bytes: [UInt8] {
        switch self {
        case .string(let text): Array(text.utf8)
        case .data(let data): Array(data)
        }
    }
}

/// The case's label for a parameterized test's arguments: bytes as hex.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02X", $0) }.joined(separator: " ")
}
#endif
