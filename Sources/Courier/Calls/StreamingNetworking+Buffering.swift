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
        var request = request
        if let upload {
            request.httpBodyStream = nil
            request.httpBody = try await upload.collect()
        }
        let (data, head) = try await exchange(request)
        return (ResponseBody(data, metrics: head.metrics), head)
    }
}
