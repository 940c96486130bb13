import NIOHTTP1

extension TestServer {
    /// `/bearer/{key}/{token}`: 200 with the echo when the request carries
    /// `Authorization: Bearer {token}`, else 401 with a `WWW-Authenticate` challenge, as an API
    /// answers an expired token. Every request for the key is counted (``visits(_:)``), and
    /// `X-Visit` says which this was.
    static func bearer(_ request: RouteRequest) -> RouteAction {
        guard let key = request.parameters["key"], !key.isEmpty, let token = request.parameters["token"], !token.isEmpty
        else { return .reply(.badRequest("key and token must be given")) }
        let visit = request.visit(key)
        let headers: HTTPHeaders = ["X-Visit": String(visit)]
        guard request.recorded.value(for: "Authorization") == "Bearer \(token)" else {
            var challenge = headers
            challenge.add(name: "WWW-Authenticate", value: "Bearer realm=\"courier\", error=\"invalid_token\"")
            return .reply(.empty(.unauthorized, headers: challenge))
        }
        return .reply(.json(Echo(request.recorded, method: request.method), headers: headers))
    }
}
