import CourierTestServer
import Foundation
import Testing

/// The routes a test of credentials and cookies across redirects is built from: a redirect to
/// a second server, which records what reached it.
@Suite(.timeLimit(.minutes(5))) struct RedirectRoutesTests {
    @Test func crossOriginRedirectPointsAtASecondServerThatRecordsWhatArrived() async throws {
        try await withServer { first in
            try await withServer { second in
                let target = second.url("/headers").absoluteString
                let redirect = try await fetch(first, "/redirect-to?url=\(queryValue(target))&status_code=307")
                #expect(redirect.status == 307)
                #expect(redirect.value("Location") == target)
                // What a client that follows it and forwards its credentials would send.
                let echoed = try await fetch(second, "/headers", headers: "Authorization: Bearer s\r\nCookie: a=1\r\n")
                let fields = try decode([String: [HTTPHeaderField]].self, from: echoed.body)["headers"] ?? []
                #expect(fields.contains(HTTPHeaderField(name: "Authorization", value: "Bearer s")))
                #expect(second.lastRequest?.value(for: "Cookie") == "a=1")
                #expect(first.requestCount == 1)
            }
        }
    }

    @Test func redirectSetsCookiesAsGiven() async throws {
        try await withServer { server in
            let cookie = "session=abc; Path=/; HttpOnly"
            let redirect = try await fetch(
                server, "/redirect-to?url=/cookies&set_cookie=\(queryValue(cookie))&set_cookie=b%3D2"
            )
            #expect(redirect.status == 302)
            #expect(redirect.value("Location") == "/cookies")
            #expect(redirect.values("Set-Cookie") == [cookie, "b=2"])
        }
    }

    @Test func setCookieWithALineBreakIsRefused() async throws {
        let response = try await withServer { try await fetch($0, "/redirect-to?url=/get&set_cookie=a%3D1%0D%0AX:%201") }
        #expect(response.status == 400)
    }

    private func queryValue(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+;?/:")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
