#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Courier
import Foundation
import Testing

/// `redactingPassword(in:)` and `URL.redactedString`, as Go's `URL.Redacted()` behaves.
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
        let url = try #require(URL(string: "http://alice:s3cr3tpw@127.0.0.1:9/get?q=1"))
        #expect(url.redactedString == "http://alice:xxxxx@127.0.0.1:9/get?q=1")
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
}
