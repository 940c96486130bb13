import Foundation
import Testing

@testable import Courier

/// The direct route of ``ResolvedBaseURL`` must give what `Endpoint.url(relativeTo:)` gives
/// through `URLComponents`, byte for byte, for every base, path and query.
@Suite struct ResolvedBaseURLTests {
    static let bases: [URL?] = [
        "http://127.0.0.1:8080", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/",
        "http://127.0.0.1:8080/v1//", "https://api.example.com/a%20b/c/", "HTTP://Example.COM:80/Up/",
        "http://user:pass@127.0.0.1:1/private/", "http://[::1]:9/x", "http://127.0.0.1/api?key=1",
        "http://127.0.0.1/api?", "http://127.0.0.1/api?a=1&b=%20#frag", "http://127.0.0.1/p#only-fragment",
        "http://127.0.0.1/%C3%BC/", "http://127.0.0.1/;params/", "http://h", "ftp://127.0.0.1/", "mailto:a@b",
        "file:///etc/", "http:///nohost/", "urn:isbn:0451450523",
    ].map { URL(string: $0) } + [
        URL(string: "v2/", relativeTo: URL(string: "http://127.0.0.1/api/")),
        URL(string: "../up?q=1", relativeTo: URL(string: "http://127.0.0.1/a/b/c")),
        URL(fileURLWithPath: "/tmp/base"),
    ]

    static let paths = [
        "", "/", "//", "users", "/users", "users/", "//users//", "users/42", "a b", "a%2Fb", "%", "%zz", "100%",
        "files/a b/x#y", "search?q=a", "search?q=a b&c=|", "a?", "?", "?x=1", "#", "#frag", "a#b?c", "a?b#c?d",
        "a??b", "users/a:b", "a:b://c", "1http://h/x", "http://127.0.0.2:9/x", "HTTPS://h/x?y", "h+s.-1://h/",
        "://x", "./a", "../a", "a/./b/../c", "~user", "[x]", "a|b{c}^`\\\"<>", "a\tb", "a\u{0}b", "a\r\nb",
        "a\u{7F}", "@:!$&'()*+,;=", "ü", "a\u{301}", "🦆/x", "é?q=é",
    ]

    static let querySets: [[URLQueryItem]] = [
        [],
        [URLQueryItem(name: "page", value: "2")],
        [URLQueryItem(name: "q", value: "a+b&c=d é"), URLQueryItem(name: "flag", value: nil)],
        [URLQueryItem(name: "", value: nil)],
        [URLQueryItem(name: "", value: "")],
        [URLQueryItem(name: "", value: nil), URLQueryItem(name: "", value: nil)],
        [URLQueryItem(name: "path", value: "/x?y#z"), URLQueryItem(name: "n\u{0}", value: "🦆a\u{301}")],
        [URLQueryItem(name: "%41", value: "100%"), URLQueryItem(name: "sp ace", value: "\t\r\n")],
    ]

    @Test(arguments: bases.indices)
    func directRouteMatchesEndpointRoute(baseIndex: Int) {
        guard let baseURL = Self.bases[baseIndex] else { return }
        let base = ResolvedBaseURL(baseURL)
        for path in Self.paths {
            for items in Self.querySets {
                let endpoint = Endpoint(path, queryItems: items)
                let direct = Result { () throws(RequestError) -> URL in try base.url(for: endpoint) }
                let reference = Result { () throws(RequestError) -> URL in try endpoint.url(relativeTo: baseURL) }
                switch (direct, reference) {
                case (.success(let url), .success(let expected)):
                    #expect(url.absoluteString == expected.absoluteString, "\(baseURL) + \(path.debugDescription) + \(items)")
                    #expect(url == expected, "\(baseURL) + \(path.debugDescription) + \(items)")
                case (.failure(let error), .failure(let expected)):
                    #expect(error == expected, "\(baseURL) + \(path.debugDescription)")
                default:
                    Issue.record("\(baseURL) + \(path.debugDescription) + \(items): \(direct) but \(reference)")
                }
            }
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/v1/", "users/42", [URLQueryItem(name: "fields", value: "name,email")]),
        ("http://127.0.0.1:8080", "small", []),
        ("https://api.example.com/a%20b/", "files/a b#x", []),
        ("http://127.0.0.1/api?key=1", "items?sort=asc", [URLQueryItem(name: "page", value: "2")]),
    ])
    func commonRequestsTakeTheDirectRoute(base: String, path: String, items: [URLQueryItem]) throws {
        let base = ResolvedBaseURL(try #require(URL(string: base)))
        #expect(base.resolvesDirectly(Endpoint(path, queryItems: items)))
    }

    @Test(arguments: ["http://127.0.0.2/x", "ü", "a\u{301}"])
    func unusualPathsTakeEndpointsRoute(path: String) throws {
        let base = ResolvedBaseURL(try #require(URL(string: "http://127.0.0.1/")))
        #expect(!base.resolvesDirectly(Endpoint(path)))
    }

    @Test func aClientsBaseURLCanBeChanged() throws {
        let exchange: HTTPExchange = { request in (Data(), ResponseHead(statusCode: 200, url: request.url)) }
        var client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:1/a/")), exchange: exchange)
        client.baseURL = try #require(URL(string: "http://127.0.0.1:2/b"))
        #expect(try client.urlRequest(for: Request<Data>("x")).url?.absoluteString == "http://127.0.0.1:2/b/x")
        #expect(client.baseURL.absoluteString == "http://127.0.0.1:2/b")
    }
}
