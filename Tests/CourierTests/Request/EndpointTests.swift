import Courier
import Foundation
import Testing

@Suite struct EndpointTests {
    let base = URL(string: "http://127.0.0.1:8080/v1/")!

    @Test(arguments: [
        ("http://127.0.0.1:8080/v1/", "/users", "http://127.0.0.1:8080/v1/users"),
        ("http://127.0.0.1:8080/v1/", "users", "http://127.0.0.1:8080/v1/users"),
        ("http://127.0.0.1:8080/v1", "users", "http://127.0.0.1:8080/v1/users"),
        ("http://127.0.0.1:8080/v1//", "//users", "http://127.0.0.1:8080/v1/users"),
        ("http://127.0.0.1:8080", "users/", "http://127.0.0.1:8080/users/"),
        ("http://127.0.0.1:8080", "", "http://127.0.0.1:8080/"),
        ("http://127.0.0.1:8080/v1/", "", "http://127.0.0.1:8080/v1/"),
    ])
    func joinsPathsWithExactlyOneSlash(base: String, path: String, expected: String) throws {
        let url = try Endpoint(path).url(relativeTo: URL(string: base))
        #expect(url.absoluteString == expected)
    }

    @Test func percentEncodesThePath() throws {
        let url = try Endpoint("files/a b/ü%/x#y").url(relativeTo: base)
        #expect(url.absoluteString == "http://127.0.0.1:8080/v1/files/a%20b/%C3%BC%25/x")
    }

    @Test func encodesReservedCharactersInQueryValues() throws {
        let endpoint = Endpoint("search", queryItems: [
            URLQueryItem(name: "q", value: "a+b&c=d é"),
            URLQueryItem(name: "flag", value: nil),
            URLQueryItem(name: "path", value: "/x?y"),
        ])
        let url = try endpoint.url(relativeTo: base)
        #expect(url.absoluteString == "http://127.0.0.1:8080/v1/search?q=a%2Bb%26c%3Dd%20%C3%A9&flag&path=/x?y")
    }

    @Test func mergesBaseQueryPathQueryAndItemsInOrder() throws {
        let base = URL(string: "http://127.0.0.1:8080/api?key=1")!
        let url = try Endpoint("items?sort=asc", queryItems: [URLQueryItem(name: "page", value: "2")]).url(relativeTo: base)
        #expect(url.absoluteString == "http://127.0.0.1:8080/api/items?key=1&sort=asc&page=2")
    }

    @Test func absoluteURLsIgnoreTheBase() throws {
        let url = try Endpoint("http://127.0.0.2:9/x", queryItems: [URLQueryItem(name: "a", value: "1")]).url(relativeTo: base)
        #expect(url.absoluteString == "http://127.0.0.2:9/x?a=1")
        #expect(Endpoint("https://h/x").isAbsolute)
        #expect(!Endpoint("users/a:b").isAbsolute)
    }

    @Test func relativePathWithoutBaseIsATypedError() {
        #expect(throws: RequestError.missingBaseURL(path: "users")) {
            try Endpoint("users").url(relativeTo: nil)
        }
    }

    @Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/passwd"])
    func unsupportedSchemesAreRefused(_ text: String) throws {
        do {
            _ = try Endpoint(text).url()
            Issue.record("expected an error for \(text)")
        } catch {
            guard case .unsupportedScheme = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    /// A Unix socket URL is built like any other, as a base URL and as an absolute request URL;
    /// the transport decides whether it can reach the socket.
    @Test func unixSocketURLsAreBuiltAsBaseAndAsAbsoluteURLs() throws {
        let base = try #require(URL.unixSocket("/run/app.sock", path: "/v1/"))
        let joined = try Endpoint("users/42", queryItems: [URLQueryItem(name: "a", value: "1")]).url(relativeTo: base)
        #expect(joined.absoluteString == "http+unix://%2Frun%2Fapp.sock/v1/users/42?a=1")
        #expect(joined.unixSocketRoute?.socketPath == "/run/app.sock")
        #expect(joined.unixSocketRoute?.url.absoluteString == "http://localhost/v1/users/42?a=1")
        let absolute = try Endpoint("https+unix://%2Frun%2Fapp.sock/info").url()
        #expect(absolute.unixSocketRoute?.url.absoluteString == "https://localhost/info")
    }

    @Test(arguments: ["http://", "http:///path", "http://[::1/x"])
    func urlsWithoutAHostAreInvalid(_ text: String) {
        do {
            _ = try Endpoint(text).url()
            Issue.record("expected an error for \(text)")
        } catch {
            guard case .invalidURL = error else {
                Issue.record("unexpected \(error) for \(text)")
                return
            }
        }
    }

    @Test func baseWithUnsupportedSchemeIsRefused() {
        #expect(throws: RequestError.unsupportedScheme("mailto", url: "mailto:a@b")) {
            try Endpoint("x").url(relativeTo: URL(string: "mailto:a@b"))
        }
    }
}
