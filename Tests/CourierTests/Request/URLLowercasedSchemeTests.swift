import Foundation
import Testing

@testable import Courier

/// The scheme read from the URL's first bytes is `scheme?.lowercased()`, whatever the URL.
@Suite struct URLLowercasedSchemeTests {
    static let urls: [URL?] = [
        "http://127.0.0.1/", "https://127.0.0.1/", "HTTP://h/", "HtTpS://h/x", "http:/relative", "https:",
        "httpx://h/", "http+unix://%2Ftmp%2Fs/x", "https+unix://%2Ftmp%2Fs/x", "ftp://h/", "h://x", "htt://x",
        "mailto:a@b", "ws://h/", "wss://h/", "file:///tmp/x", "urn:isbn:1",
    ].map { URL(string: $0) } + [
        URL(string: "path/x", relativeTo: URL(string: "HTTPS://h/base/")),
        URL(string: "//other/x", relativeTo: URL(string: "http://h/")),
        URL(fileURLWithPath: "/tmp/x"),
    ]

    @Test(arguments: urls.indices)
    func matchesFoundationsSchemeInLowercase(index: Int) throws {
        let url = try #require(Self.urls[index])
        #expect(url.lowercasedScheme == url.scheme?.lowercased(), "\(url)")
    }
}
