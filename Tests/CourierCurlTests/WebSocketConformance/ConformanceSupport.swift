#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestSupport
import CourierWebSocket
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
    responseFields: [String] = [], framesWithHandshake: [WireFrame] = [], options: WebSocket.Options = .patient(),
    sourceLocation: SourceLocation = #_sourceLocation,
    client: (WebSocket, ScriptedWebSocketServer) async throws -> Void
) async throws -> ScriptedClientRecord {
    let server = try await ScriptedWebSocketServer.start(
        script, answersPings: answersPings, answersClose: answersClose, responseFields: responseFields,
        framesWithHandshake: framesWithHandshake)
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
    // RSV1 marks a compressed message's first frame, when permessage-deflate was agreed; no
    // other bit is ever set, and never on a control frame or a continuation (RFC 7692 §6).
    let compressionAgreed = responseFields.contains { $0.lowercased().hasPrefix("sec-websocket-extensions: permessage-deflate") }
    let reservedBitsValid = record.frames.allSatisfy { frame in
        frame.rsv == 0 || (compressionAgreed && frame.rsv == 4 && (frame.opcode == WireFrame.text || frame.opcode == WireFrame.binary))
    }
    #expect(reservedBitsValid, "a client frame had reserved bits set: \(record.frames)", sourceLocation: sourceLocation)
    #expect(record.trailingByteCount == 0, "the client's last frame was cut short", sourceLocation: sourceLocation)
    return record
}

extension WebSocket.Options {
    /// The default options but for a close timeout only a hang reaches: a case that is not about
    /// the timeout must not fail because a loaded machine (or a sanitizer) answered late.
    static func patient(
        maximumMessageBytes: Int = 16 << 20, compression: WebSocket.Compression? = nil, idleTimeout: TimeInterval? = nil
    ) -> Self {
        WebSocket.Options(
            maximumMessageBytes: maximumMessageBytes, compression: compression, idleTimeout: idleTimeout,
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

/// Whether the cases that move tens of mebibytes run: not under a sanitizer, where each costs
/// minutes of CPU and starves the tests beside it. The plain runs check those sizes; the
/// sanitizer runs check memory and threads, which the smaller cases reach through the same code.
let runsLargeCases = !TestRun.isSanitized

/// A message that takes many writes: 16 MiB, the default limit, or 1 MiB under a sanitizer.
let largeMessageLength = runsLargeCases ? 16 << 20 : 1 << 20

/// `count` bytes of printable ASCII, a–z over and over, so that the same payload serves as text
/// and as binary.
func asciiPayload(_ count: Int) -> [UInt8] {
    repeating((0..<26).map { UInt8(ascii: "a") + UInt8($0) }, toCount: count)
}

/// `count` bytes taking every value, in an order in which a shift by less than 256 bytes
/// changes every byte.
func binaryPayload(_ count: Int) -> [UInt8] {
    repeating((0..<256).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }, toCount: count)
}

/// `pattern` repeated to `count` bytes by doubling, a few copies rather than a loop per byte:
/// megabytes of payload cost nothing even under a sanitizer.
private func repeating(_ pattern: [UInt8], toCount count: Int) -> [UInt8] {
    var bytes = pattern
    bytes.reserveCapacity(max(count, pattern.count))
    // The length stays a multiple of the pattern's, so each copy continues the pattern.
    while bytes.count < count { bytes += bytes.prefix(count - bytes.count) }
    return Array(bytes.prefix(count))
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
#endif
