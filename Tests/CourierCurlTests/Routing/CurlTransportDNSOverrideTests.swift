#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestServer
import Foundation
import Testing
@testable import Courier
@testable import CourierCurl

/// CURLOPT_RESOLVE and CURLOPT_CONNECT_TO on CurlTransport, with names that exist nowhere but
/// in the configuration (`api.test`): a request that reached the server proves the override
/// was used, since no resolver could have answered.
@Suite("CurlTransport DNS overrides")
struct CurlTransportDNSOverrideTests {
    @Test func aResolveOverrideAnswersForItsHostAndPort() async throws {
        let server = try await TestServer.start()
        var configuration = CurlTransport.Configuration()
        configuration.resolve = [
            try CurlTransport.ResolveOverride(curlSyntax: "api.test:\(server.port):127.0.0.1"),
            .init(host: "other.test", port: server.port, addresses: ["::1", "127.0.0.1"]),
        ]
        try await withCurlTransport(configuration) { _, transport in
            let echo = try await transport.echo(request(URL(string: "http://api.test:\(server.port)/get")!))
            #expect(echo.header("Host") == "api.test:\(server.port)")
            // ::1 is tried first and refused (the server listens on 127.0.0.1 only), then 127.0.0.1.
            let other = try await transport.echo(request(URL(string: "http://other.test:\(server.port)/get")!))
            #expect(other.header("Host") == "other.test:\(server.port)")
        }
        #expect(server.requestCount == 2)
        try await server.shutdown()
    }

    @Test func aConnectToRewriteSendsTheConnectionElsewhereAndKeepsTheHost() async throws {
        let server = try await TestServer.start()
        var configuration = CurlTransport.Configuration()
        configuration.connectTo = [try CurlTransport.ConnectOverride(curlSyntax: "api.test:80:127.0.0.1:\(server.port)")]
        try await withCurlTransport(configuration) { _, transport in
            let echo = try await transport.echo(request(URL(string: "http://api.test/get")!))
            #expect(echo.header("Host") == "api.test")
        }
        #expect(server.requestCount == 1)
        try await server.shutdown()
    }

    @Test func entriesInCurlsSyntaxParse() throws {
        let resolve = try CurlTransport.ResolveOverride(curlSyntax: "api.test:443:127.0.0.1,[::1]")
        #expect(resolve == .init(host: "api.test", port: 443, addresses: ["127.0.0.1", "[::1]"]))
        #expect(resolve.description == "api.test:443:127.0.0.1,[::1]")
        #expect(CurlTransport.ResolveOverride(host: "a.test", port: 1, addresses: ["::1"]).description == "a.test:1:[::1]")
        let connect = try CurlTransport.ConnectOverride(curlSyntax: "api.test::[::1]:8443")
        #expect(connect == .init(host: "api.test", port: nil, connectHost: "::1", connectPort: 8443))
        #expect(connect.description == "api.test::[::1]:8443")
        #expect(try CurlTransport.ConnectOverride(curlSyntax: ":::") == .init(host: nil, port: nil, connectHost: nil, connectPort: nil))
    }

    @Test(arguments: [
        ("api.test:443", "host:port:address[,address…]"),
        ("api.test:https:127.0.0.1", "a port number after the host"),
        ("api.test:70000:127.0.0.1", "the port is not within 1...65535"),
        ("api.test:443:not-an-address", "\"not-an-address\" is not an IPv4 or IPv6 address"),
        ("api.test:443:", "no address is given"),
        (":443:127.0.0.1", "the host is empty"),
    ])
    func aMalformedResolveEntrySaysWhy(text: String, expected: String) {
        #expect(throws: CurlTransport.RouteSyntaxError(option: "--resolve", value: text, expected: expected)) {
            try CurlTransport.ResolveOverride(curlSyntax: text)
        }
    }

    @Test func aMalformedConnectToEntrySaysWhy() {
        #expect(throws: CurlTransport.RouteSyntaxError.self) { try CurlTransport.ConnectOverride(curlSyntax: "a:1:b") }
        #expect(throws: CurlTransport.RouteSyntaxError.self) { try CurlTransport.ConnectOverride(curlSyntax: "a:x:b:2") }
        #expect(throws: CurlTransport.RouteSyntaxError.self) { try CurlTransport.ConnectOverride(curlSyntax: "a:1:[::1:2") }
        #expect(throws: CurlTransport.RouteSyntaxError.self) { try CurlTransport.ConnectOverride(curlSyntax: "a:1:b:0") }
    }

    /// libcurl would skip an entry it cannot parse with a line on its verbose log; the
    /// transport refuses it instead.
    @Test func anOverrideLibcurlWouldSkipIsRefusedWhenTheTransportIsMade() throws {
        var configuration = CurlTransport.Configuration()
        configuration.resolve = [.init(host: "api.test", port: 443, addresses: ["localhost"])]
        let error = try #require(throws: CurlError.self) { try CurlTransport(configuration: configuration) }
        #expect(error.message == "resolve api.test:443:localhost: \"localhost\" is not an IPv4 or IPv6 address")
    }
}
