import Foundation
import Testing
@testable import Courier

/// `http+unix` URLs, AsyncHTTPClient's spelling: the socket's path percent-encoded as the host.
@Suite struct URLUnixSocketTests {
    @Test func theSocketURLRoundTrips() throws {
        let url = try #require(URL.unixSocket("/var/run/docker.sock", path: "/v1.43/info?all=1"))
        #expect(url.absoluteString == "http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.43/info?all=1")
        #expect(url.namesUnixSocket)
        let route = try #require(url.unixSocketRoute)
        #expect(route.socketPath == "/var/run/docker.sock")
        #expect(route.url.absoluteString == "http://localhost/v1.43/info?all=1")
        #expect(URL.unixSocket("/s.sock", path: "/", secure: true)?.unixSocketRoute?.url.absoluteString == "https://localhost/")
        #expect(URL.unixSocket("", path: "/") == nil)
        #expect(URL.unixSocket("/s.sock", path: "relative") == nil)
        #expect(!URL(string: "http://localhost/")!.namesUnixSocket)
    }

    @Test func aURLWhoseHostIsNoPathNamesNoRoute() {
        #expect(URL(string: "http+unix:///get")?.unixSocketRoute == nil)
        #expect(URL(string: "http://localhost/get")?.unixSocketRoute == nil)
    }
}
