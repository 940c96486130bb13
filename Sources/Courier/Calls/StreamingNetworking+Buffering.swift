#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A ``StreamingNetworking`` over a ``Networking`` that buffers: the upload is collected into
/// `httpBody` before the request is sent, and the body is handed over whole once it arrived.
///
/// For test doubles and for code written against ``StreamingNetworking`` that must also run over
/// a plain ``Networking``; memory is then what the buffered exchange needs. The head wraps the
/// `HTTPURLResponse` without copying it; a response that is not HTTP fails with
/// `NotHTTPResponse`.
package func streamingNetworking(buffering networking: @escaping Networking) -> StreamingNetworking {
    streamingExchange(buffering: exchange(networking))
}

/// `streamingNetworking(buffering:)` over an ``HTTPExchange``, whose head is handed on as it
/// is; the body's ``ResponseBody/metrics`` are the head's.
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
