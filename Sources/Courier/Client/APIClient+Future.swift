#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

// The Future flavour of the client, for code built on callbacks and chaining rather than
// async/await. Each call starts the request at once; failures arrive as `APIError`.

extension APIClient {
    /// Sends `request` and completes with the decoded `Response`.
    ///
    /// ```swift
    /// client.future(for: .user(id: 42))
    ///     .map(\.name)
    ///     .onValue { name in print(name) }
    ///     .onError { error in print(error) }
    /// ```
    public func future<Response: Decodable & Sendable>(for request: Request<Response>) -> Future<Response> {
        Future { try await send(request) }
    }

    /// Sends `request` and completes with the raw body bytes.
    public func future(for request: Request<Data>) -> Future<Data> {
        Future { try await send(request) }
    }

    /// Sends `request` and completes when a successful response arrived.
    public func future(for request: Request<Void>) -> Future<Void> {
        Future { try await send(request) }
    }
}
