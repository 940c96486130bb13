#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import CourierCurl

/// The table from what libcurl reports about a proxy to a URLError code and message, row by
/// row, including the ones a loopback proxy cannot provoke (a proxy whose name does not resolve,
/// a SOCKS rule set, a CONNECT refused with 403).
@Suite struct CurlProxyFailureTests {
    static let proxy = CurlTransport.Proxy.url("http://svc:hunter2@127.0.0.1:3128")

    private func outcome(_ code: Int, said: String = "libcurl's words", connect: Int = 0, proxyError: Curl.ProxyError = .other) -> CurlError.ProxyOutcome {
        CurlError.ProxyOutcome(code: code, libcurlSaid: said, connectStatus: connect, proxyError: proxyError)
    }

    @Test func eachProxyFailureHasItsCodeAndSentence() throws {
        let rows: [(CurlError.ProxyOutcome, URLError.Code, String)] = [
            (outcome(Curl.Code.recvError, connect: 407), .userAuthenticationRequired,
             "the proxy requires authentication (CONNECT answered 407) and it refused the credentials given"),
            (outcome(Curl.Code.recvError, connect: 403), .cannotConnectToHost, "the proxy refused to open a tunnel (CONNECT answered 403)"),
            (outcome(Curl.Code.proxy, proxyError: .authentication), .userAuthenticationRequired,
             "the SOCKS proxy requires authentication and it refused the credentials given"),
            (outcome(Curl.Code.proxy, proxyError: .unresolvedTarget), .cannotFindHost,
             "the server's host name could not be resolved for the SOCKS proxy"),
            (outcome(Curl.Code.proxy, proxyError: .unreachableTarget), .cannotConnectToHost, "the SOCKS proxy could not connect to the server"),
            (outcome(Curl.Code.proxy, proxyError: .refusedByRule), .cannotConnectToHost,
             "the SOCKS proxy's rules do not allow a connection to the server"),
            (outcome(Curl.Code.proxy), .cannotConnectToHost, "the proxy failed"),
            (outcome(Curl.Code.couldntResolveProxy), .cannotFindHost, "the proxy's host name could not be resolved"),
            (outcome(Curl.Code.couldntConnect, said: "Failed to connect to 127.0.0.1 port 3128 after 0 ms: Connection refused"),
             .cannotConnectToHost, "the proxy at 127.0.0.1:3128 refused the connection"),
        ]
        for (outcome, code, sentence) in rows {
            let (mapped, error) = try #require(CurlError.proxyFailure(outcome, proxy: Self.proxy))
            #expect(mapped == code, "\(sentence)")
            #expect(error.message == "\(sentence); libcurl said: \(outcome.libcurlSaid)")
            #expect(error.curlCode == outcome.code)
        }
    }

    /// A refused connection to another address is the server's, reached directly (no-proxy).
    @Test func failuresThatAreNotTheProxysAreLeftToTheGeneralTable() {
        let direct = outcome(Curl.Code.couldntConnect, said: "Failed to connect to 127.0.0.1 port 8080 after 0 ms: Connection refused")
        #expect(CurlError.proxyFailure(direct, proxy: Self.proxy) == nil)
        #expect(CurlError.proxyFailure(outcome(Curl.Code.operationTimedOut), proxy: Self.proxy) == nil)
        #expect(CurlError.proxyFailure(outcome(Curl.Code.proxy), proxy: .none) == nil)
    }

    @Test func libcurlsWordsLoseThePassword() throws {
        let said = outcome(Curl.Code.proxy, said: "rejected svc:hunter2 and hunter%32")
        let proxy = CurlTransport.Proxy.url("socks5://svc:hunter%32@127.0.0.1:1080", credentials: .init(user: "svc", password: "hunter2"))
        let (_, error) = try #require(CurlError.proxyFailure(said, proxy: proxy))
        #expect(error.message == "the proxy failed; libcurl said: rejected svc:xxxxx and xxxxx")
        #expect(proxy.secrets.sorted() == ["hunter%32", "hunter2", "hunter2"].sorted())
        #expect(CurlError.proxyFailure(outcome(Curl.Code.proxy, proxyError: .authentication), proxy: .url("socks5://127.0.0.1"))?.1.message
            .hasPrefix("the SOCKS proxy requires authentication and none were given") == true)
    }

    @Test func noTextOfAConfigurationShowsTheProxyPassword() {
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .url("http://svc:hunter2@proxy.test:3128", credentials: .init(user: "svc", password: "hunter3"))
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [String(describing: configuration), String(reflecting: configuration), dumped] {
            #expect(!text.contains("hunter2"), "\(text)")
            #expect(!text.contains("hunter3"), "\(text)")
        }
        #expect(dumped.contains("http://svc:xxxxx@proxy.test:3128 (svc:xxxxx)"))
    }
}
