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
