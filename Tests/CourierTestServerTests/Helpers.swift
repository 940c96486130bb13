import CourierTestServer
import Foundation

/// Runs `body` with a fresh server and always shuts it down, even when `body` throws.
func withServer<Result: Sendable>(_ body: (TestServer) async throws -> Result) async throws -> Result {
    let server = try await TestServer.start()
    do {
        let result = try await body(server)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}

/// `GET`s `path` on a connection of its own.
func fetch(_ server: TestServer, _ path: String, method: String = "GET", headers: String = "") async throws
    -> RawResponse
{
    try await RawConnection.with(server) { connection in
        try await connection.send("\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n\(headers)\r\n")
        return try await connection.readResponse(isHead: method == "HEAD")
    }
}

func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
    try JSONDecoder().decode(type, from: Data(body))
}
