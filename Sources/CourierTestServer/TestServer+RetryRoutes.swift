import NIOHTTP1

// Routes whose answer depends on how often they were asked: a client's retries.
extension TestServer {
    /// `/flaky/{key}/{failures}`: the first `failures` requests for `key` fail, the rest get an
    /// ``Echo``. A failure is `?status=` (default 503, 400...599) with the `?retry_after=` value,
    /// if given, as `Retry-After`, or with `?fault=close` a connection closed without a word.
    /// Every answer carries `X-Visit: n`, the request's number for `key`.
    static func flaky(_ request: RouteRequest) -> RouteAction {
        guard let key = request.parameters["key"], !key.isEmpty, let failures = request.integer("failures", in: 0...1_000_000)
        else { return .reply(.badRequest("key must be given and failures must be 0...1000000")) }
        let status = request.query("status").map { Int($0) } ?? 503
        guard let status, (400...599).contains(status) else { return .reply(.badRequest("status must be 400...599")) }
        let visit = request.visit(key)
        var headers: HTTPHeaders = ["X-Visit": String(visit)]
        guard visit <= failures else { return .reply(.json(Echo(request.recorded, method: request.method), headers: headers)) }
        if request.query("fault") == "close" { return .closeConnection }
        if let retryAfter = request.query("retry_after") { headers.add(name: "Retry-After", value: retryAfter) }
        return .reply(.empty(HTTPResponseStatus(statusCode: status), headers: headers))
    }
}
