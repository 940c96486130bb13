#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

func saveBody(of url: URL, to destination: URL, over transport: some HTTPTransport) async throws -> Int {
    let (body, head) = try await transport.stream(for: URLRequest(url: url))
    guard head.statusCode == 200 else {
        throw URLError(.badServerResponse)
    }
    guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown)
    }
    let file = try FileHandle(forWritingTo: destination)
    defer { try? file.close() }
    var written = 0
    for try await chunk in body {
        try file.write(contentsOf: chunk)
        written += chunk.count
    }
    return written
}
