import NIOHTTP1

// Routes that answer with a 3xx.
extension TestServer {
    static func relativeRedirect(_ request: RouteRequest) -> RouteAction {
        redirectChain(request, prefix: "", route: "redirect")
    }

    static func absoluteRedirect(_ request: RouteRequest) -> RouteAction {
        redirectChain(request, prefix: request.baseURL, route: "absolute-redirect")
    }

    static func redirectTo(_ request: RouteRequest) -> RouteAction {
        guard let location = request.query("url"), HTTPHeaderField.isValidValue(location) else {
            return .reply(.badRequest("url is required"))
        }
        var code = 302
        if let text = request.query("status_code") {
            guard let parsed = Int(text), (300...399).contains(parsed) else {
                return .reply(.badRequest("status_code must be 300...399"))
            }
            code = parsed
        }
        var headers: HTTPHeaders = ["Location": location]
        // Cookies set on a hop, for tests of a cookie store that must apply them to the next.
        for (name, value) in request.recorded.queryItems where name == "set_cookie" {
            guard HTTPHeaderField.isValidValue(value) else {
                return .reply(.badRequest("cannot send Set-Cookie \(value)"))
            }
            headers.add(name: "Set-Cookie", value: value)
        }
        return .reply(.empty(HTTPResponseStatus(statusCode: code), headers: headers))
    }

    /// `count` hops: each 302 points at the same route with `count - 1`, the last at `/get`.
    private static func redirectChain(_ request: RouteRequest, prefix: String, route: String) -> RouteAction {
        guard let count = request.integer("count", in: 1...Int.max) else {
            return .reply(.badRequest("redirect count must be at least 1"))
        }
        let target = count == 1 ? "/get" : "/\(route)/\(count - 1)"
        return .reply(.empty(.found, headers: ["Location": prefix + target]))
    }
}
