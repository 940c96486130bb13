#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension APIClient {
    /// The most bytes of an unacceptable response's body kept in its ``APIError``.
    static let errorBodyLimit = 64 << 10

    /// Sends `request` and returns the body of an acceptable response to read as it arrives,
    /// with the response.
    ///
    /// The request goes through ``streaming`` when set, so the body is never held whole;
    /// otherwise through the dispatcher's ``Networking``, buffered. An unacceptable status
    /// throws the ``APIError`` ``Dispatcher/dispatch(_:)`` would, with the first 64 KiB of the
    /// body. Errors while the body is read come from the body's iterator, as the transport
    /// throws them.
    ///
    /// - Parameter upload: The request body, produced while it is sent; replaces a body the
    ///   request's method carries.
    public func stream(
        _ request: Request<ResponseBody>, uploading upload: UploadBody? = nil
    ) async throws(APIError) -> (ResponseBody, HTTPURLResponse) {
        let urlRequest = try urlRequest(for: request)
        let method = urlRequest.httpMethod ?? "GET"
        let send = streaming ?? streamingNetworking(buffering: dispatcher.networking)
        let body: ResponseBody
        let response: URLResponse
        do {
            (body, response) = try await send(urlRequest, upload)
        } catch let error as RequestError {
            throw APIError(kind: .invalidRequest(error), method: method, url: urlRequest.url)
        } catch {
            throw APIError(kind: .transport(error), method: method, url: urlRequest.url)
        }
        guard let http = response as? HTTPURLResponse else {
            throw APIError(kind: .notHTTP, method: method, url: urlRequest.url)
        }
        guard dispatcher.acceptableStatusCodes.contains(http.statusCode) else {
            let kind = APIError.kind(forStatusCode: http.statusCode) ?? .unexpectedStatus(statusCode: http.statusCode)
            let kept = await body.prefix(upTo: Self.errorBodyLimit)
            throw APIError(kind: kind, method: method, url: urlRequest.url, response: http, body: kept)
        }
        return (body, http)
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
