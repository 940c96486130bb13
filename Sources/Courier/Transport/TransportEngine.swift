#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What an engine implements: one exchange, streamed, and the same exchange collected into
/// memory, where collecting inside the engine costs less than reading its own stream. Nothing
/// else: no redirect, cookie, deadline, retry or validation, which are ``Policies`` layers.
///
/// A transport builds its engine once, applies its policies once with ``applying(_:)``, and
/// answers `exchange`, `streaming`, `networking`, `data(for:)` and `stream(for:uploading:)` from
/// the result, so that no transport stacks the layers on its own.
package struct TransportEngine: Sendable {
    /// One exchange whose body is collected before the answer returns.
    package let exchange: HTTPExchange
    /// One exchange whose head returns as soon as it arrives, with its body to read as it comes.
    package let stream: StreamingNetworking

    package init(exchange: @escaping HTTPExchange, stream: @escaping StreamingNetworking) {
        self.exchange = exchange
        self.stream = stream
    }

    /// This engine with `policies`' layers over both of its calls, in the same order. Outside
    /// them all, a streamed request that names no `Content-Type` gets its upload's (a form's,
    /// with its boundary), so every layer sees the request as it goes out.
    package func applying(_ policies: Policies) -> TransportEngine {
        let stream = policies.apply(to: stream)
        return TransportEngine(exchange: policies.apply(to: exchange)) { request, upload in
            try await stream(request.namingContentType(of: upload), upload)
        }
    }
}

extension URLRequest {
    /// This request with `upload`'s ``UploadBody/contentType`` when it names none itself.
    package func namingContentType(of upload: UploadBody?) -> URLRequest {
        guard let contentType = upload?.contentType, value(forHTTPHeaderField: "Content-Type") == nil else { return self }
        var request = self
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        return request
    }
}
