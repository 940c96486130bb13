#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocket
import Foundation

/// Sends each line, then reads the server's messages until it closes; returns what it read.
func chatOverWebSocket(_ lines: [String], at url: URL, over transport: some HTTPTransport) async throws -> [String] {
    var request = URLRequest(url: url)
    request.setValue("Bearer demo", forHTTPHeaderField: "Authorization")
    let socket = try await transport.webSocket(for: request, options: .init(protocols: ["chat.v1"]))
    for line in lines {
        try await socket.send(.string(line))
    }
    var received: [String] = []
    for try await message in socket.messages {
        if case .string(let text) = message { received.append(text) }
        if received.count == lines.count { try await socket.close(.normalClosure, reason: "bye") }
    }
    return received
}
