#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestServer
import Foundation
import Testing
@testable import Courier
@testable import CourierCurl

/// CurlTransport over a Unix domain socket, against the NIO test server bound to a socket in a
/// temporary directory of the test's own: for every request of a transport, and for one request
/// through an `http+unix` URL.
@Suite("CurlTransport over Unix domain sockets")
struct CurlTransportUnixSocketTests {
    /// A server on a new socket, its path, and cleanup of both afterwards.
    private func withSocketServer<T>(_ body: (TestServer, String) async throws -> T) async throws -> T {
        // Short: sun_path holds 108 bytes, and TMPDIR may be long.
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("courier-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sock").path
        let server = try await TestServer.start(unixDomainSocketPath: path)
        let result = await outcome { try await body(server, path) }
        try await server.shutdown()
        return try result.get()
    }

    @Test func aTransportWithASocketPathSendsEveryRequestOverIt() async throws {
        try await withSocketServer { server, path in
            var configuration = CurlTransport.Configuration()
            configuration.unixSocketPath = path
            let transport = try CurlTransport(configuration: configuration)
            let result = await outcome {
                (try await transport.echo(request(URL(string: "http://api.test/get?a=1")!)),
                 try await transport.echo(request(URL(string: "http://api.test/anything")!, method: "POST", body: "hi")))
            }
            await transport.shutdown()
            let (first, second) = try result.get()
            #expect(first.path == "/get")
            #expect(first.header("Host") == "api.test", "the URL's host still names the server")
            #expect(second.bodyText == "hi")
            #expect(server.requestCount == 2)
            #expect(server.acceptedConnectionCount == 1, "one connection over the socket, reused")
        }
    }

    /// `APIClient` over a transport that reaches sockets takes `http+unix` URLs as the base URL
    /// and as a request's absolute URL.
    @Test func anAPIClientSendsToHTTPUnixBaseAndRequestURLs() async throws {
        try await withSocketServer { server, path in
            let transport = try CurlTransport()
            let base = try #require(URL.unixSocket(path, path: "/"))
            let absolute = try #require(URL.unixSocket(path, path: "/get?y=2"))
            let client = APIClient(baseURL: base, networking: transport.networking)
            let result = await outcome {
                (try await client.send(Request<Echo>("anything/a", method: .get([URLQueryItem(name: "x", value: "1")]))),
                 try await client.send(Request<Echo>(url: absolute)))
            }
            await transport.shutdown()
            let (relative, direct) = try result.get()
            #expect(relative.path == "/anything/a")
            #expect(relative.query == "x=1")
            #expect(direct.path == "/get")
            #expect(direct.query == "y=2")
            #expect(server.requestCount == 2)
        }
    }

    @Test func anHTTPUnixURLSendsOneRequestOverItsSocket() async throws {
        try await withSocketServer { server, path in
            let transport = try CurlTransport()
            let url = try #require(URL.unixSocket(path, path: "/get?x=y%20z"))
            #expect(url.absoluteString.hasPrefix("http+unix://%2Ftmp%2Fcourier-"))
            let result = await outcome { try await transport.data(for: request(url)) }
            await transport.shutdown()
            let (data, response) = try result.get()
            let echo = try JSONDecoder().decode(Echo.self, from: data)
            #expect(echo.path == "/get")
            #expect(echo.query == "x=y%20z")
            #expect(echo.header("Host") == "localhost")
            #expect(response.url == url, "the response names the URL asked for")
            #expect(server.requestCount == 1)
        }
    }

    /// Handles are reused without a reset: a request after an `http+unix` one must go back to
    /// TCP (or to the transport's own socket), not stay on the last socket.
    @Test func theNextRequestOnTheSameHandleLeavesTheSocket() async throws {
        try await withSocketServer { socketServer, path in
            let tcp = try await TestServer.start()
            var configuration = CurlTransport.Configuration()
            // One handle for all three requests.
            configuration.maximumConnectionsPerHost = 1
            let transport = try CurlTransport(configuration: configuration)
            let result = await outcome {
                let overSocket = try await transport.echo(request(try #require(URL.unixSocket(path, path: "/get?socket"))))
                let overTCP = try await transport.echo(request(tcp.url("/get?tcp")))
                let again = try await transport.echo(request(try #require(URL.unixSocket(path, path: "/get?again"))))
                return [overSocket.query, overTCP.query, again.query]
            }
            await transport.shutdown()
            try await tcp.shutdown()
            #expect(try result.get() == ["socket", "tcp", "again"])
            #expect(socketServer.requestCount == 2)
            #expect(tcp.requestCount == 1)
        }
    }

    /// A request's own socket wins over the transport's, and no proxy is used on a socket.
    @Test func anHTTPUnixURLWinsOverTheTransportsSocketAndItsProxy() async throws {
        try await withSocketServer { server, path in
            let refusing = try await RefusingPort.open()
            var configuration = CurlTransport.Configuration()
            configuration.unixSocketPath = "/tmp/courier-nobody-listens-\(UUID().uuidString.prefix(8)).sock"
            configuration.proxy = .url("http://127.0.0.1:\(refusing.port)")
            let transport = try CurlTransport(configuration: configuration)
            let result = await outcome { try await transport.echo(request(try #require(URL.unixSocket(path, path: "/get")))) }
            await transport.shutdown()
            try await refusing.close()
            #expect(try result.get().path == "/get")
            #expect(server.requestCount == 1)
        }
    }

    /// A relative `Location` resolves against the `http+unix` URL and stays on the socket.
    @Test func aRedirectOnTheSocketIsFollowedOnIt() async throws {
        try await withSocketServer { server, path in
            let transport = try CurlTransport()
            let url = try #require(URL.unixSocket(path, path: "/relative-redirect/2"))
            let result = await outcome { try await transport.data(for: request(url)) }
            await transport.shutdown()
            let (data, response) = try result.get()
            #expect(try JSONDecoder().decode(Echo.self, from: data).path == "/get")
            #expect(response.url == URL.unixSocket(path, path: "/get"))
            #expect(server.requestCount == 3)
        }
    }

    /// A server on TCP must not send a client to a local socket it never chose.
    @Test func aRedirectFromTCPToASocketIsNotFollowed() async throws {
        try await withSocketServer { socketServer, path in
            let tcp = try await TestServer.start()
            let transport = try CurlTransport()
            let target = try #require(URL.unixSocket(path, path: "/get"))
            let url = tcp.url("/redirect-to?url=\(queryValue(target.absoluteString))")
            let result = await outcome { try await transport.http(request(url)) }
            await transport.shutdown()
            try await tcp.shutdown()
            #expect(try result.get().1.statusCode == 302)
            #expect(socketServer.requestCount == 0)
        }
    }

    @Test func aSocketNobodyListensOnIsCannotConnectToHost() async throws {
        let transport = try CurlTransport()
        let url = try #require(URL.unixSocket("/tmp/courier-missing-\(UUID().uuidString.prefix(8)).sock", path: "/get"))
        let result = await outcome { try await transport.data(for: request(url)) }
        await transport.shutdown()
        #expect(throws: URLError.self) { try result.get() }
        #expect((result.failure as? URLError)?.code == .cannotConnectToHost)
    }

    @Test func anHTTPUnixURLWithoutASocketPathIsABadURL() async throws {
        let transport = try CurlTransport()
        let result = await outcome { try await transport.data(for: request(URL(string: "http+unix:///get")!)) }
        await transport.shutdown()
        #expect((result.failure as? URLError)?.code == .badURL)
    }

    @Test func aSocketPathLongerThanTheSystemAllowsIsRefusedWhenTheTransportIsMade() throws {
        var configuration = CurlTransport.Configuration()
        configuration.unixSocketPath = "/tmp/" + String(repeating: "s", count: 200)
        let error = try #require(throws: CurlError.self) { try CurlTransport(configuration: configuration) }
        #expect(error.message == "unixSocketPath: the path is 205 bytes long; a Unix socket's is at most 107")
    }
}
