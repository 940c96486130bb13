#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// Asks each question only once the answer to the one before has come back, over one exchange.
func chat(_ questions: [String], at url: URL, over transport: some HTTPTransport) async throws -> [String] {
    let (outgoing, speaker) = AsyncStream.makeStream(of: Data.self)
    defer { speaker.finish() }                                  // ends the request body
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    let (body, _) = try await transport.stream(for: request, uploading: .duplex(outgoing))
    var incoming = body.makeAsyncIterator()
    var pending = Data()
    var answers: [String] = []
    for question in questions {
        speaker.yield(Data((question + "\n").utf8))
        while !pending.contains(UInt8(ascii: "\n")), let chunk = try await incoming.next() {
            pending.append(chunk)
        }
        guard let end = pending.firstIndex(of: UInt8(ascii: "\n")) else { break }   // the body ended
        answers.append(String(decoding: pending[..<end], as: UTF8.self))
        pending = Data(pending[(end + 1)...])
    }
    return answers
}
