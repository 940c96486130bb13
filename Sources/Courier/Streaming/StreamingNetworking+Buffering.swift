#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A ``StreamingNetworking`` over a ``Networking`` that buffers: the upload is collected into
/// `httpBody` before the request is sent, and the body is handed over whole once it arrived.
///
/// For test doubles and for code written against ``StreamingNetworking`` that must also run over
/// a plain ``Networking``; memory is then what the buffered exchange needs.
public func streamingNetworking(buffering networking: @escaping Networking) -> StreamingNetworking {
    { request, upload in
        var request = request
        if let upload {
            request.httpBodyStream = nil
            request.httpBody = try await upload.collect()
        }
        let (data, response) = try await networking(request)
        return (ResponseBody(data), response)
    }
}
