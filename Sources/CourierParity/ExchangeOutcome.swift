#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// The normalised result of sending one request through one transport: a response or a failure.
public enum ExchangeOutcome: Sendable, Equatable {
    /// The transport returned an HTTP response (any status code).
    case response(ExchangeResponse)
    /// The transport threw, or returned something that is not HTTP.
    case failure(ExchangeFailure)

    /// Sends `request` through `networking` and records what came back; never throws, because
    /// a failure is an outcome to compare like any other.
    public init(sending request: URLRequest, through networking: Networking) async {
        do {
            let (body, response) = try await networking(request)
            self.init(body: body, response: response)
        } catch {
            self = .failure(ExchangeFailure(error))
        }
    }

    /// Sends `request` through `streaming` and records what came back, the body read chunk by
    /// chunk as it arrives; a failure while the body is read is the outcome, as it is for a
    /// buffered exchange. `readDelay`, when set, is waited after each chunk: a slow reader, so
    /// that the transport's back-pressure is part of what is compared.
    public init(
        streaming request: URLRequest, through streaming: StreamingNetworking, uploading upload: RequestBody? = nil,
        readDelay: Duration? = nil
    ) async {
        do {
            let (body, head) = try await streaming(request, upload)
            var data = Data()
            for try await chunk in body {
                data.append(chunk)
                if let readDelay { try await Task.sleep(for: readDelay) }
            }
            self.init(body: data, response: head.urlResponse)
        } catch {
            self = .failure(ExchangeFailure(error))
        }
    }

    /// The outcome of a transport that returned `body` and `response`.
    public init(body: Data, response: URLResponse) {
        guard let http = response as? HTTPURLResponse else {
            self = .failure(.notHTTP)
            return
        }
        self = .response(ExchangeResponse(body: body, response: http))
    }

    /// A one-line summary, used when the two outcomes are not even of the same kind.
    var summary: String {
        switch self {
        case .response(let response): "status \(response.statusCode)"
        case .failure(let failure): failure.description
        }
    }
}
