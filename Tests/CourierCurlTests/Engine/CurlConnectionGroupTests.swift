#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Testing
@testable import CourierCurl

/// Which transfers share a connection group, and how the metrics write an address.
@Suite struct CurlConnectionGroupTests {
    private func group(_ text: String, socket: String? = nil) throws -> String {
        let url = try #require(URL(string: text))
        var configuration = CurlTransport.Configuration()
        configuration.unixSocketPath = socket
        return CurlTransfer.connectionGroup(of: CurlRequestPlan(request: URLRequest(url: url), url: url, configuration: configuration))
    }

    @Test func requestsToOneOriginShareAGroupWhateverTheirPathQueryOrFragment() throws {
        let origin = try group("http://127.0.0.1:8080")
        #expect(origin == "http://127.0.0.1:8080")
        for text in ["http://127.0.0.1:8080/", "http://127.0.0.1:8080/a/b?c=d", "http://127.0.0.1:8080?q", "http://127.0.0.1:8080#f"] {
            #expect(try group(text) == origin, "\(text)")
        }
        #expect(try group("http://[::1]:8080/x") == "http://[::1]:8080")
    }

    @Test func anotherSchemeHostPortUserOrSocketIsAnotherGroup() throws {
        let groups = try [
            group("http://127.0.0.1:8080/x"), group("https://127.0.0.1:8080/x"), group("http://127.0.0.2:8080/x"),
            group("http://127.0.0.1:8081/x"), group("http://127.0.0.1/x"), group("http://user@127.0.0.1:8080/x"),
            group("http://localhost/x", socket: "/tmp/a.sock"), group("http://localhost/x", socket: "/tmp/b.sock"),
            group("http://localhost/x"),
        ]
        #expect(Set(groups).count == groups.count, "\(groups)")
    }

    @Test(arguments: [
        ("127.0.0.1", 8080, "127.0.0.1:8080"), ("::1", 443, "[::1]:443"), ("127.0.0.1", 0, "127.0.0.1"),
        ("::1", nil, "[::1]"), ("10.0.0.1", 9, "10.0.0.1:9"), ("fe80::1:2:3:4", 65535, "[fe80::1:2:3:4]:65535"),
    ] as [(String, Int?, String)])
    func anAddressIsWrittenAsInAURL(ip: String, port: Int?, expected: String) {
        #expect(ExchangeMetrics.address(ip, port) == expected)
    }

    @Test func noAddressWithoutAnIP() {
        #expect(ExchangeMetrics.address(nil, 80) == nil)
    }
}
