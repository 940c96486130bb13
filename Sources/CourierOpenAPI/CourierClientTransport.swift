#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Runs a client that swift-openapi-generator made over one of Courier's transports, streaming
/// both ways.
///
/// Give it the transport's ``/Courier/StreamingNetworking`` and hand it to the generated `Client`
/// as its `transport`, with the server URL from the document (`Servers.server1()`) or your own:
/// the generated operations then go out through Courier's engine and its policies (redirects,
/// cookies, deadline, validation), whichever engine that is. This module never links libcurl:
/// an app that uses `URLSessionTransport` alone depends on `Courier` and `CourierOpenAPI` only.
///
/// A request body goes out as it is produced, as an ``/Courier/RequestBody`` stream, with its
/// length as `Content-Length` when the body knows it and chunked otherwise. A response body
/// arrives as an `HTTPBody` that yields the engine's chunks as they come, so a generated
/// operation that returns `application/octet-stream` can be read chunk by chunk without holding
/// the whole body: iterate `try response.ok.body.binary` with `for try await`. Such a body can be
/// iterated once (`IterationBehavior.single`), and its length is the response's
/// `Content-Length` unless a `Content-Encoding` means the engine decoded it.
///
/// Errors are the transport's own: a failed exchange throws its `URLError`, which the generated
/// client wraps in `ClientError` with the operation's name; an error while the body streams is
/// thrown by the body's iterator. Status codes are never errors here; the generated client maps
/// undocumented ones to `.undocumented`.
public struct CourierClientTransport: ClientTransport {
    /// Sends each request; held for the transport's lifetime, which keeps the engine alive.
    public let streaming: StreamingNetworking

    /// Sends the generated client's requests through `streaming`, typically a transport's
    /// streaming entry point with its policies applied.
    public init(_ streaming: @escaping StreamingNetworking) {
        self.streaming = streaming
    }

    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let urlRequest = try URLRequest(request, baseURL: baseURL)
        let (responseBody, head) = try await streaming(urlRequest, body.map(RequestBody.init))
        let response = try HTTPResponse(head, for: urlRequest)
        // A HEAD response has no body whatever its Content-Length says.
        guard request.method != .head else { return (response, nil) }
        return (response, HTTPBody(responseBody, length: .init(response)))
    }
}
