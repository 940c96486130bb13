#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import Courier
@testable import CourierCurl

/// CURLOPT_DOH_URL on CurlTransport, against a DoH responder on 127.0.0.1 that knows
/// `service.test`: a name no other resolver answers, so a request that reached the test
/// server went through the responder, whose log shows the question.
@Suite("CurlTransport DNS over HTTPS")
struct CurlTransportDoHTests {
    static let names = ["service.test": "127.0.0.1"]

    private func configuration(doh: URL, files: TLSTestFiles) -> CurlTransport.Configuration {
        var configuration = CurlTransport.Configuration()
        configuration.dohURL = doh
        configuration.caBundlePath = files.caBundlePath
        return configuration
    }

    @Test func aNameResolvesThroughTheDoHServer() async throws {
        try await withDoHServer(names: Self.names) { doh, files in
            try await withCurlTransport(configuration(doh: doh.url, files: files)) { server, transport in
                let echo = try await transport.echo(request(URL(string: "http://service.test:\(server.port)/get")!))
                #expect(echo.header("Host") == "service.test:\(server.port)")
                #expect(server.requestCount == 1)
            }
            #expect(doh.answeredQueries.contains("A service.test NOERROR"), "\(doh.answeredQueries)")
        }
    }

    @Test func aNameTheDoHServerDoesNotKnowFailsWithCannotFindHostNamingTheServer() async throws {
        try await withDoHServer(names: Self.names) { doh, files in
            let result = try await withCurlTransport(configuration(doh: doh.url, files: files)) { server, transport in
                let result = await outcome { try await transport.http(request(URL(string: "http://unknown.test:\(server.port)/get")!)) }
                #expect(server.acceptedConnectionCount == 0)
                return result
            }
            let error = try #require(result.failure as? URLError)
            #expect(error.code == .cannotFindHost)
            #expect(error.failingURL?.absoluteString.hasPrefix("http://unknown.test:") == true)
            let message = CurlError.underlying(of: error)?.message ?? ""
            #expect(message.hasPrefix("the host name unknown.test did not resolve through DNS over HTTPS at \(doh.url.absoluteString):"), "\(message)")
            #expect(message.contains("libcurl said: "), "\(message)")
            #expect(doh.answeredQueries.contains("A unknown.test NXDOMAIN"), "\(doh.answeredQueries)")
        }
    }

    @Test func aFailingDoHServerFailsTheRequestWithCannotFindHost() async throws {
        try await withDoHServer(names: Self.names) { doh, files in
            let result = try await withCurlTransport(configuration(doh: doh.failingURL, files: files)) { server, transport in
                await outcome { try await transport.http(request(URL(string: "http://service.test:\(server.port)/get")!)) }
            }
            let error = try #require(result.failure as? URLError)
            #expect(error.code == .cannotFindHost)
            #expect(CurlError.underlying(of: error)?.message.contains(doh.failingURL.absoluteString) == true)
        }
    }

    /// The DoH server decides every address, so its certificate is verified against the
    /// transport's CAs even with the transport's own verification off; the system's CAs do not
    /// know the test CA.
    @Test func theDoHServersCertificateIsVerifiedEvenWithVerificationOff() async throws {
        try await withDoHServer(names: Self.names) { doh, _ in
            var configuration = CurlTransport.Configuration()
            configuration.dohURL = doh.url
            configuration.verifiesPeer = false
            let result = try await withCurlTransport(configuration) { server, transport in
                await outcome { try await transport.http(request(URL(string: "http://service.test:\(server.port)/get")!)) }
            }
            #expect((result.failure as? URLError)?.code == .cannotFindHost)
            #expect(doh.answeredQueries.isEmpty, "\(doh.answeredQueries)")
        }
    }

    /// CURLOPT_RESOLVE entries are consulted before any resolver, DoH included.
    @Test func aResolveOverrideIsAnsweredWithoutAQuery() async throws {
        try await withDoHServer(names: [:]) { doh, files in
            let server = try await TestServer.start()
            var configuration = configuration(doh: doh.url, files: files)
            configuration.resolve = [.init(host: "api.test", port: server.port, addresses: ["127.0.0.1"])]
            let transport = try CurlTransport(configuration: configuration)
            let result = await outcome { try await transport.echo(request(URL(string: "http://api.test:\(server.port)/get")!)) }
            await transport.shutdown()
            try await server.shutdown()
            #expect(try result.get().header("Host") == "api.test:\(server.port)")
            #expect(doh.answeredQueries.isEmpty, "\(doh.answeredQueries)")
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:8053/dns-query", "dohURL: http://127.0.0.1:8053/dns-query is not an https URL"),
        ("https:///dns-query", "dohURL: https:///dns-query names no host"),
        ("https://user:secret@127.0.0.1:99999/dns-query", "dohURL: https://user:xxxxx@127.0.0.1:99999/dns-query has a port outside 1...65535"),
    ])
    func aDoHURLLibcurlCannotUseIsRefusedWhenTheTransportIsMade(text: String, message: String) throws {
        var configuration = CurlTransport.Configuration()
        configuration.dohURL = URL(string: text)
        let error = try #require(throws: CurlError.self) { try CurlTransport(configuration: configuration) }
        #expect(error.message == message)
    }

    @Test func onlyANameThatDidNotResolveIsTheDoHServersFailure() throws {
        let url = try #require(URL(string: "http://service.test/x"))
        var configuration = CurlTransport.Configuration()
        configuration.dohURL = URL(string: "https://user:secret@127.0.0.1:8443/dns-query")
        let plan = CurlRequestPlan(request: URLRequest(url: url), url: url, configuration: configuration)
        let error = try #require(CurlError.dohFailure(code: Curl.Code.couldntResolveHost, libcurlSaid: "Couldn't resolve host name", plan: plan))
        #expect(error.code == .cannotFindHost)
        #expect(CurlError.underlying(of: error)?.message == "the host name service.test did not resolve through DNS over HTTPS at "
            + "https://user:xxxxx@127.0.0.1:8443/dns-query: the DoH server answered no address for it, failed, or could not be "
            + "reached or verified; libcurl said: Couldn't resolve host name")
        #expect(CurlError.dohFailure(code: Curl.Code.couldntConnect, libcurlSaid: "", plan: plan) == nil)
        configuration.dohURL = nil
        let direct = CurlRequestPlan(request: URLRequest(url: url), url: url, configuration: configuration)
        #expect(CurlError.dohFailure(code: Curl.Code.couldntResolveHost, libcurlSaid: "", plan: direct) == nil)
    }
}
