import Foundation
import NIOHTTP1

// Routes that answer with what the request carried.
extension TestServer {
    static func echo(_ request: RouteRequest) -> RouteAction {
        .reply(.json(Echo(request.recorded, method: request.method)))
    }

    static func headers(_ request: RouteRequest) -> RouteAction {
        .reply(.json(["headers": request.recorded.headers]))
    }

    static func responseHeaders(_ request: RouteRequest) -> RouteAction {
        // The server owns framing; letting a client set these would corrupt the response.
        let reserved: Set<String> = ["content-length", "transfer-encoding", "connection"]
        var headers = HTTPHeaders()
        var fields: [HTTPHeaderField] = []
        for (name, value) in request.recorded.queryItems {
            guard HTTPHeaderField.isValidName(name), HTTPHeaderField.isValidValue(value),
                !reserved.contains(name.lowercased())
            else {
                return .reply(.badRequest("cannot send header \(name)"))
            }
            headers.add(name: name, value: value)
            fields.append(HTTPHeaderField(name: name, value: value))
        }
        return .reply(.json(fields, headers: headers))
    }

    static func status(_ request: RouteRequest) -> RouteAction {
        guard let code = request.integer("code", in: 200...599) else {
            return .reply(.badRequest("status code must be 200...599"))
        }
        var headers = HTTPHeaders()
        if [301, 302, 303, 307, 308].contains(code) {
            headers.add(name: "Location", value: "/get")
        }
        if code == 401 {
            headers.add(name: "WWW-Authenticate", value: basicChallenge)
        }
        return .reply(.empty(HTTPResponseStatus(statusCode: code), headers: headers))
    }

    static func cookies(_ request: RouteRequest) -> RouteAction {
        var cookies: [String: String] = [:]
        for header in request.recorded.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { continue }
                let value = parts.dropFirst().first?.trimmingCharacters(in: .whitespaces) ?? ""
                // The first occurrence wins, as clients send the most specific cookie first.
                if cookies[name] == nil { cookies[name] = value }
            }
        }
        return .reply(.json(["cookies": cookies]))
    }

    static func setCookies(_ request: RouteRequest) -> RouteAction {
        var headers = HTTPHeaders()
        for (name, value) in request.recorded.queryItems {
            guard HTTPHeaderField.isValidName(name), HTTPHeaderField.isValidValue(value), !value.contains(";")
            else {
                return .reply(.badRequest("cannot set cookie \(name)"))
            }
            headers.add(name: "Set-Cookie", value: "\(name)=\(value); Path=/")
        }
        headers.add(name: "Location", value: "/cookies")
        return .reply(.empty(.found, headers: headers))
    }

    static func basicAuth(_ request: RouteRequest) -> RouteAction {
        guard let user = request.parameters["user"], let password = request.parameters["password"],
            let credentials = basicCredentials(request.recorded.value(for: "Authorization")),
            credentials == "\(user):\(password)"
        else {
            return .reply(.empty(.unauthorized, headers: ["WWW-Authenticate": basicChallenge]))
        }
        return .reply(.json(BasicAuthResult(authenticated: true, user: user)))
    }

    static let basicChallenge = #"Basic realm="Courier""#

    /// The decoded `user:password` of a `Basic` authorization, or `nil` if it is not one.
    private static func basicCredentials(_ authorization: String?) -> String? {
        guard let authorization,
            let space = authorization.firstIndex(of: " "),
            authorization[..<space].lowercased() == "basic",
            let decoded = Data(base64Encoded: authorization[space...].trimmingCharacters(in: .whitespaces))
        else { return nil }
        return String(validating: decoded, as: UTF8.self)
    }

    private struct BasicAuthResult: Encodable {
        var authenticated: Bool
        var user: String
    }
}
