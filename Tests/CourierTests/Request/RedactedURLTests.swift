#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Courier
import Foundation
import Testing

/// `redactingPassword(in:)` as Go's `URL.Redacted()` behaves, and `URL.redactedString`, the one
/// rule for every message, log line, metric and trace attribute.
@Suite struct RedactedURLTests {
    @Test(arguments: [
        ("http://alice:s3cr3tpw@127.0.0.1:9/", "http://alice:xxxxx@127.0.0.1:9/"),
        ("https://alice:pw@example.com/a?b=c#d", "https://alice:xxxxx@example.com/a?b=c#d"),
        ("http://alice:@host/", "http://alice:xxxxx@host/"),
        // A colon in the password, and an "@" in the user information, stay inside what is hidden.
        ("http://alice:p:w@host/", "http://alice:xxxxx@host/"),
        ("http://alice:p%40w@x@host/", "http://alice:xxxxx@host/"),
        ("//alice:pw@host/path", "//alice:xxxxx@host/path"),
        // No password: nothing to hide, and what follows the authority is never read as one.
        ("http://alice@host/", "http://alice@host/"),
        ("http://host:8080/", "http://host:8080/"),
        ("http://host/a:b@c", "http://host/a:b@c"),
        ("http://host?x=a:b@c", "http://host?x=a:b@c"),
        ("not a url", "not a url"),
        ("", ""),
    ])
    func passwordsAreReplaced(text: String, redacted: String) {
        #expect(redactingPassword(in: text) == redacted)
    }

    @Test func aURLIsRedactedAsItsAbsoluteString() throws {
        let url = try #require(URL(string: "http://alice:s3cr3tpw@127.0.0.1:9/get?q=1&api_key=k3y#access_token=t0k"))
        #expect(url.redactedString == "http://alice:xxxxx@127.0.0.1:9/get?q=1&api_key=xxxxx")
        let plain = try #require(URL(string: "http://127.0.0.1:9/get?q=1"))
        #expect(plain.redactedString == plain.absoluteString)
    }

    @Test func messagesThatNameAURLHideItsPassword() throws {
        let url = try #require(URL(string: "http://alice:s3cr3tpw@127.0.0.1:9/"))
        let texts = [
            APIError(kind: .notFound, method: "GET", url: url).description,
            RequestError.invalidURL("http://alice:s3cr3tpw@exa mple.com/").description,
            RequestError.unsupportedScheme("ftp", url: "ftp://alice:s3cr3tpw@host/").description,
            URLError(.timedOut).described(for: URLRequest(url: url)).localizedDescription,
        ]
        for text in texts {
            #expect(!text.contains("s3cr3tpw"), "\(text)")
            #expect(text.contains("alice:xxxxx@"), "\(text)")
        }
    }

    /// Every kind of message that names a URL hides both kinds of secret it can hold: the
    /// password and a query value whose name says it is a secret.
    @Test func messagesThatNameAURLHideItsQuerySecrets() throws {
        let url = try #require(URL(string: "http://alice:s3cr3tpw@127.0.0.1:9/x?api_key=k3y&token=t0k&page=2"))
        let text = url.absoluteString
        let texts = [
            APIError(kind: .notFound, method: "GET", url: url).description,
            APIError(kind: .transport(URLError(.timedOut).described(for: URLRequest(url: url))), method: "GET", url: url).description,
            APIError(kind: .invalidRequest(.unsupportedScheme("ftp", url: "ftp://h/?token=t0k")), method: "GET", url: nil).description,
            RequestError.invalidURL(text + " x").description,
            RequestError.missingBaseURL(path: "x?api_key=k3y").description,
            RequestError.unsupportedOption("use the proxy \(text)", transport: "URLSessionTransport", supportedBy: "CurlTransport").description,
            URLError(.timedOut).described(for: URLRequest(url: url)).localizedDescription,
            readableMessage(for: URLError(.timedOut).described(for: URLRequest(url: url))),
        ]
        for text in texts {
            #expect(!text.contains("s3cr3tpw") && !text.contains("k3y") && !text.contains("t0k"), "\(text)")
        }
        #expect(texts[0].contains("page=2"), "other query values stay: they tell requests apart")
    }

    /// A request that could not be built has no URL; its message names the text it was given
    /// once, not beside a placeholder.
    @Test func aRequestWithoutAURLIsNamedByItsError() {
        let error = APIError(kind: .invalidRequest(.unsupportedScheme("ftp", url: "ftp://h/")), method: "GET", url: nil)
        #expect(error.description == "GET: invalid request: unsupported URL scheme \"ftp\" in ftp://h/; only http, https, http+unix and https+unix are sent")
    }
}
