#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What an engine implements: one exchange. A request and an optional upload body go in; the
/// response's ``ResponseHead`` comes out as soon as it arrives, with its ``ResponseBody`` to read
/// as it comes. Nothing else: no redirect, cookie, deadline, retry or validation, which are
/// ``Policies`` layers, put over the engine once by ``applying(_:)``.
///
/// A transport of your own builds its engine once, with its policies over it, and answers
/// ``HTTPTransport/engine`` with it; every call of ``HTTPTransport`` (``HTTPTransport/data(for:)``,
/// ``HTTPTransport/stream(for:uploading:)``, downloads, ``APIClient``) then goes through the
/// same layers as on Courier's own engines:
///
/// ```swift
/// let engine = TransportEngine { request, upload in
///     try await myClient.send(request, upload)   // -> (ResponseBody, ResponseHead)
/// }
/// .applying(policies)
/// ```
///
/// See <doc:ImplementingATransport> for what an engine must do to answer as Courier's do.
public struct TransportEngine: Sendable {
    /// One exchange whose body is collected before the answer returns.
    package let exchange: HTTPExchange
    /// One exchange whose head returns as soon as it arrives, with its body to read as it comes.
    package let stream: StreamingNetworking
    /// Whether ``exchange`` is the engine's own rather than its stream read whole.
    private let collectsItself: Bool

    /// An engine that answers every exchange with `stream`: a buffered call reads the body
    /// whole, bounded by ``Policies/maximumResponseBytes``.
    ///
    /// `stream` is given the request and the body to send in its place (nil: the request's own
    /// `httpBody`), and answers with the final exchange's head and body: any status, a 3xx
    /// included, with the metrics it measured.
    public init(_ stream: @escaping StreamingNetworking) {
        self.init(exchange: nil, stream: stream)
    }

    /// An engine with a buffered call of its own, cheaper than reading its stream.
    package init(exchange: HTTPExchange?, stream: @escaping StreamingNetworking) {
        self.exchange = exchange ?? Self.collecting(stream, upTo: Policies().maximumResponseBytes)
        self.stream = stream
        collectsItself = exchange != nil
    }

    /// This engine with `policies`' layers over each of its calls, in the same order: what a
    /// transport answers ``HTTPTransport/engine`` with. Build it once, when the transport is
    /// made, rather than per request. Outside them all, a streamed request that names no
    /// `Content-Type` gets its body's (a form's, with its boundary), so every layer sees the
    /// request as it goes out.
    public func applying(_ policies: Policies) -> TransportEngine {
        let stream = policies.apply(to: self.stream)
        let exchange = collectsItself ? self.exchange : Self.collecting(self.stream, upTo: policies.maximumResponseBytes)
        return TransportEngine(exchange: policies.apply(to: exchange)) { request, upload in
            // JSON sent straight to a transport is encoded here, so that it has a length.
            let upload = try upload?.encoded()
            return try await stream(request.namingContentType(of: upload), upload)
        }
    }

    /// Sends `request` with `body` read as it goes out, and answers with the response's body
    /// read whole, up to `limit` bytes, as ``exchange`` answers: how a client sends a file or a
    /// form through a buffered call.
    package func exchange(_ request: URLRequest, sending body: RequestBody, upTo limit: Int) async throws -> (Data, ResponseHead) {
        try await Self.collected(stream, request, body, upTo: limit)
    }

    /// `stream`'s answers with their bodies read whole, up to `limit` bytes, and their heads
    /// carrying the metrics of the whole exchange, as an engine's own buffered call answers.
    private static func collecting(_ stream: @escaping StreamingNetworking, upTo limit: Int) -> HTTPExchange {
        { request in try await collected(stream, request, nil, upTo: limit) }
    }

    private static func collected(
        _ stream: StreamingNetworking, _ request: URLRequest, _ upload: RequestBody?, upTo limit: Int
    ) async throws -> (Data, ResponseHead) {
        let (body, answered) = try await stream(request, upload)
        var head = answered
        let data: Data
        do {
            data = try await body.collect(upTo: limit)
        } catch let error as URLError where error.code == .dataLengthExceedsMaximum {
            throw URLError(
                .dataLengthExceedsMaximum, "the body exceeds the limit of \(limit) bytes (Policies.maximumResponseBytes)",
                url: head.url
            )
        }
        if let metrics = body.metrics { head.metrics = metrics }
        return (data, head)
    }
}

extension URLRequest {
    /// This request with `upload`'s ``RequestBody/contentType`` when it names none itself.
    package func namingContentType(of upload: RequestBody?) -> URLRequest {
        guard let contentType = upload?.contentType, value(forHTTPHeaderField: "Content-Type") == nil else { return self }
        var request = self
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        return request
    }
}
