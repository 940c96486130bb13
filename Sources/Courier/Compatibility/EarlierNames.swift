import Foundation

// Names Courier itself had before 1.0, each unavailable with the one that replaced it, so code
// written against them fails with the way forward rather than "cannot find in scope".

/// The body a streamed call sent is the one body type now: ``RequestBody``.
@available(*, unavailable, renamed: "RequestBody")
public typealias UploadBody = RequestBody

extension APIClient {
    /// A body read as it is sent goes in the request's method now, as any other body does.
    @available(*, unavailable, message: "put the body in the request's method: Request(path, method: .post(body))")
    public func stream(
        _ request: Request<ResponseBody>, uploading upload: RequestBody?
    ) async throws(APIError) -> (ResponseBody, ResponseHead) {
        try await stream(request)
    }
}

extension APIClient {
    /// A future of a request is a ``Future`` made from the async call, one spelling for both.
    @available(*, unavailable, message: "make the future from the call: Future { try await client.send(request) }")
    public func future<Response: Decodable & Sendable>(for request: Request<Response>) -> Future<Response> {
        Future { try await send(request) }
    }

    /// A future of a request is a ``Future`` made from the async call, one spelling for both.
    @available(*, unavailable, message: "make the future from the call: Future { try await client.send(request) }")
    public func future(for request: Request<Data>) -> Future<Data> {
        Future { try await send(request) }
    }

    /// A future of a request is a ``Future`` made from the async call, one spelling for both.
    @available(*, unavailable, message: "make the future from the call: Future { try await client.send(request) }")
    public func future(for request: Request<Void>) -> Future<Void> {
        Future { try await send(request) }
    }
}
