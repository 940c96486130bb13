#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A ``StreamingNetworking`` over an ``HTTPExchange`` that buffers: the upload is collected into
/// `httpBody` before the request is sent, and the body is handed over whole once it arrived,
/// with the head's metrics. For an engine that cannot stream (a session without Courier's
/// delegate) and for a client built over a ``Networking``.
func streamingExchange(buffering exchange: @escaping HTTPExchange) -> StreamingNetworking {
    { request, upload in
        var sent = request
        if let upload { sent = try await request.sending(collected: upload) }
        let (data, head) = try await exchange(sent)
        return (ResponseBody(data, metrics: head.metrics), head)
    }
}

extension URLRequest {
    /// This request with `upload` read whole into its `httpBody`, for a call that takes no body
    /// beside the request.
    func sending(collected upload: RequestBody) async throws -> URLRequest {
        var request = self
        request.httpBodyStream = nil
        request.httpBody = try await upload.collect()
        return request
    }
}
