#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Synchronization

/// Closure doubles: a `Networking` in a test is just a function.

func httpResponse(for request: URLRequest, status: Int, headers: [String: String] = [:]) throws -> HTTPURLResponse {
    let url = request.url ?? URL(fileURLWithPath: "/")
    guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers) else {
        throw URLError(.badServerResponse)
    }
    return response
}

/// The head of ``httpResponse(for:status:headers:)``, for a `StreamingNetworking` double.
func responseHead(for request: URLRequest, status: Int, headers: [String: String] = [:]) throws -> ResponseHead {
    guard let head = ResponseHead(try httpResponse(for: request, status: status, headers: headers)) else {
        throw URLError(.badServerResponse)
    }
    return head
}

/// A `Networking` double answering every request with `status` and `body`.
func stub(status: Int, body: String = "", headers: [String: String] = [:]) -> Networking {
    { request in (Data(body.utf8), try httpResponse(for: request, status: status, headers: headers)) }
}

/// A double for both kinds of exchange that answers by path (404 for any other) and records
/// what each hop received: the request, and the upload read to its end as an engine reads it.
final class RecordingOrigin: Sendable {
    /// What one hop received; `upload` is the upload's bytes as text.
    struct Hop: Sendable {
        var request: URLRequest
        var upload: String?
    }

    let hops = Mutex<[Hop]>([])
    private let answers: [String: (status: Int, headers: [String: String])]

    init(_ answers: [String: (status: Int, headers: [String: String])]) {
        self.answers = answers
    }

    var requests: [URLRequest] { hops.withLock { $0.map(\.request) } }

    var uploads: [String?] { hops.withLock { $0.map(\.upload) } }

    var networking: Networking {
        { request in
            let (body, head) = try await self.answer(request, upload: nil)
            return (try await body.collect(upTo: .max), head.urlResponse)
        }
    }

    var streaming: StreamingNetworking {
        { request, upload in try await self.answer(request, upload: upload) }
    }

    /// A body that names the path, so a test can tell which hop answered.
    private func answer(_ request: URLRequest, upload: RequestBody?) async throws -> (ResponseBody, ResponseHead) {
        let bytes = try await upload?.collect()
        hops.withLock { $0.append(Hop(request: request, upload: bytes.map { String(decoding: $0, as: UTF8.self) })) }
        let path = request.url?.path ?? ""
        let answer = answers[path] ?? (404, [:])
        return (ResponseBody(Data("at \(path)".utf8)), try responseHead(for: request, status: answer.status, headers: answer.headers))
    }
}
