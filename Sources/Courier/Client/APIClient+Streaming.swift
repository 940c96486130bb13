#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension APIClient {
    /// The most bytes of an unacceptable response's body kept in its ``APIError``.
    static let errorBodyLimit = 64 << 10

    /// Sends `request` and returns the body of an acceptable response to read as it arrives,
    /// with the response's head.
    ///
    /// Over a transport (``init(baseURL:transport:decoder:encoder:)``) the request goes through
    /// its ``HTTPTransport/streaming``, so the body is never held whole; over a ``Networking`` or
    /// a ``Dispatcher`` it goes through the dispatcher, buffered. A request body read as it is
    /// sent (``RequestBody/file(_:)``, ``RequestBody/stream(_:length:)``,
    /// ``RequestBody/duplex(_:length:)``, ``RequestBody/multipart(_:)``) goes out while the
    /// response comes back. An unacceptable status throws the ``APIError``
    /// ``Dispatcher/response(to:)`` would, with the first 64 KiB of the body. Errors while the
    /// body is read come from the body's iterator, as the transport throws them. The head's
    /// ``ResponseHead/metrics`` stop at the first byte; the body's ``ResponseBody/metrics`` have
    /// the rest once it has been read.
    public func stream(_ request: Request<ResponseBody>) async throws(APIError) -> (ResponseBody, ResponseHead) {
        let urlRequest = try urlRequest(for: request)
        let upload = request.method.body.flatMap { $0.isInMemory ? nil : $0 }
        let send = streaming ?? streamingExchange(buffering: dispatcher.exchange)
        let body: ResponseBody
        let head: ResponseHead
        do {
            (body, head) = try await ChosenTimeoutInterval.during(request.timeoutInterval) { try await send(urlRequest, upload) }
        } catch {
            throw APIError.failure(error, sending: urlRequest)
        }
        guard dispatcher.acceptableStatusCodes.contains(head.statusCode) else {
            throw APIError.unacceptable(head, body: await body.prefix(upTo: Self.errorBodyLimit), for: urlRequest)
        }
        return (body, head)
    }
}

extension ResponseBody {
    /// Up to `maximumBytes` of the body, whatever happens while reading it; the rest is dropped.
    fileprivate func prefix(upTo maximumBytes: Int) async -> Data {
        var data = Data()
        do {
            for try await chunk in self {
                data.append(chunk.prefix(maximumBytes - data.count))
                if data.count >= maximumBytes { break }
            }
        } catch {
            // What arrived before the failure is what the error can show.
        }
        return data
    }
}
