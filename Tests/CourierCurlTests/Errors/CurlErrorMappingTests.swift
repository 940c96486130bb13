#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestServer
import Foundation
import Testing
@testable import CourierCurl

/// The CURLcode → URLError table (CurlError+URLError.swift), one test per row: provoked on
/// loopback where it can be, checking both libcurl's code and the URLError; rows that need TLS,
/// a proxy, HTTP/2 or a broken libcurl cannot be provoked here and are checked on the mapping
/// function itself.
@Suite struct CurlErrorMappingTests {
    /// The URLError and the underlying CurlError `request` fails with.
    private func failure(_ transport: CurlTransport, _ request: URLRequest) async -> (URLError.Code, CurlError?)? {
        do {
            _ = try await transport.data(for: request)
            return nil
        } catch let error as URLError {
            return (error.code, CurlError.underlying(of: error))
        } catch {
            return nil
        }
    }

    @Test(arguments: [
        ("/close", Curl.Code.gotNothing, URLError.Code.badServerResponse),
        ("/truncate/100000", Curl.Code.partialFile, .networkConnectionLost),
        ("/response-headers?Content-Encoding=gzip", Curl.Code.badContentEncoding, .cannotDecodeContentData),
    ])
    func provokedOnLoopback(path: String, curlCode: Int, urlCode: URLError.Code) async throws {
        try await withCurlTransport { server, transport in
            let result = await failure(transport, request(server.url(path)))
            #expect(result?.0 == urlCode)
            #expect(result?.1?.curlCode == curlCode, "\(String(describing: result?.1))")
        }
    }

    @Test func refusedConnection() async throws {
        try await withCurlTransport { server, transport in
            let refusing = try await RefusingPort.open()
            let result = await failure(transport, request(refusing.url("/get")))
            #expect(result?.0 == .cannotConnectToHost)
            #expect(result?.1?.curlCode == Curl.Code.couldntConnect)
            try await refusing.close()
        }
    }

    @Test func unknownHost() async throws {
        // `.invalid` never resolves (RFC 6761): no query leaves the machine's resolver path.
        try await withCurlTransport { _, transport in
            let result = await failure(transport, request(URL(string: "http://courier-test.invalid/")!))
            #expect(result?.0 == .cannotFindHost)
            #expect(result?.1?.curlCode == Curl.Code.couldntResolveHost)
        }
    }

    @Test func totalDeadlineIsTimedOutAndSaysWhichLimit() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.policies.totalDeadline = 0.5
        try await withCurlTransport(configuration) { server, transport in
            let url = server.url("/never")
            await #expect {
                _ = try await transport.data(for: request(url))
            } throws: { error in
                guard let error = error as? URLError else { return false }
                return error.code == .timedOut
                    && error.localizedDescription == "timed out: the total deadline of 0.5 s passed before the response was complete (GET \(url.absoluteString))"
            }
        }
    }

    /// The server sends part of the body and then nothing, for ever: only a timeout ends the
    /// request, so a client without one hangs into the time limit rather than passing.
    @Test(.timeLimit(.minutes(5))) func idleTimeoutIsTimedOut() async throws {
        try await withCurlTransport { server, transport in
            var stalled = request(server.url("/stall/1000"))
            stalled.timeoutInterval = 1
            let started = ContinuousClock.now
            let result = await failure(transport, stalled)
            #expect(result?.0 == .timedOut)
            #expect(result?.1?.curlCode == Curl.Code.operationTimedOut)
            // Which check ends it, Courier's idle clock (~1 s) or libcurl's five-second speed
            // average (~6 s), depends on when the loop's thread gets a core: with the whole
            // suite on two cores both had passed by then and libcurl's came first. The idle
            // clock itself is checked without a socket in CurlTransferTimeoutTests; here, the
            // code, and that neither check fired before the second of silence.
            #expect(ContinuousClock.now - started >= .milliseconds(900))
        }
    }

    @Test func tooManyRedirects() async throws {
        // Redirects are followed in Swift, so libcurl never reports CURLE_TOO_MANY_REDIRECTS:
        // the policy's limit gives the row's URLError.
        try await withCurlTransport { server, transport in
            let result = await failure(transport, request(server.url("/redirect-loop")))
            #expect(result?.0 == .httpTooManyRedirects)
            #expect(server.requestCount == 21)
        }
        #expect(CurlError.urlErrorCode(curlCode: Curl.Code.tooManyRedirects, osErrno: 0) == .httpTooManyRedirects)
    }

    @Test(arguments: ["/infinite", "/gzip-bomb/64", "/many-headers/2000"])
    func sizeLimits(path: String) async throws {
        var configuration = CurlTransport.Configuration()
        configuration.policies.maximumResponseBytes = 1 << 20
        configuration.policies.maximumHeaderBytes = 16 << 10
        try await withCurlTransport(configuration) { server, transport in
            let result = await failure(transport, request(server.url(path)))
            #expect(result?.0 == .dataLengthExceedsMaximum)
            let expected: CurlError.Kind = path.hasPrefix("/many-headers") ? .headersTooLarge : .responseTooLarge
            #expect(result?.1?.kind == expected)
        }
        // libcurl's own limit (CURLOPT_MAXFILESIZE, unused since it cannot bound decoded bytes).
        #expect(CurlError.urlErrorCode(curlCode: Curl.Code.fileSizeExceeded, osErrno: 0) == .dataLengthExceedsMaximum)
    }

    @Test func unsupportedProtocol() async throws {
        // CurlTransport refuses other schemes before libcurl sees them, as URLSession does, so
        // libcurl's CURLE_UNSUPPORTED_PROTOCOL can only be about the reply: a server that does
        // not speak HTTP.
        try await withCurlTransport { _, transport in
            let result = await failure(transport, request(URL(string: "ftp://127.0.0.1:1/")!))
            #expect(result?.0 == .unsupportedURL)
        }
        #expect(CurlError.urlErrorCode(curlCode: Curl.Code.unsupportedProtocol, osErrno: 0) == .badServerResponse)
    }

    /// Rows that need TLS, a proxy, HTTP/2 or HTTP/3, a request body stream or a failing
    /// libcurl, none of which this loopback suite has: the mapping itself is checked.
    @Test(arguments: [
        (Curl.Code.urlMalformat, URLError.Code.badURL),
        (Curl.Code.couldntResolveProxy, .cannotFindHost),
        (Curl.Code.proxy, .cannotConnectToHost),
        (Curl.Code.quicConnectError, .cannotConnectToHost),
        (Curl.Code.weirdServerReply, .badServerResponse),
        (Curl.Code.http2, .badServerResponse),
        (Curl.Code.recvError, .networkConnectionLost),
        (Curl.Code.sendError, .networkConnectionLost),
        (Curl.Code.http2Stream, .networkConnectionLost),
        (Curl.Code.http3, .networkConnectionLost),
        (Curl.Code.sslConnectError, .secureConnectionFailed),
        (Curl.Code.sslCipher, .secureConnectionFailed),
        (Curl.Code.useSSLFailed, .secureConnectionFailed),
        (Curl.Code.sslEngineNotFound, .secureConnectionFailed),
        (Curl.Code.sslEngineSetFailed, .secureConnectionFailed),
        (Curl.Code.sslShutdownFailed, .secureConnectionFailed),
        (Curl.Code.sslCACertBadFile, .secureConnectionFailed),
        (Curl.Code.sslCRLBadFile, .secureConnectionFailed),
        (Curl.Code.peerFailedVerification, .serverCertificateUntrusted),
        (Curl.Code.sslIssuerError, .serverCertificateUntrusted),
        (Curl.Code.sslCertProblem, .clientCertificateRejected),
        (Curl.Code.sslClientCert, .clientCertificateRequired),
        (Curl.Code.abortedByCallback, .cancelled),
        (Curl.Code.sendFailRewind, .requestBodyStreamExhausted),
        (Curl.Code.outOfMemory, .dataLengthExceedsMaximum),
        // Codes newer than 7.76, which only a newer libcurl returns.
        (Curl.Code.tooLarge, .dataLengthExceedsMaximum),
        (Curl.Code.echRequired, .secureConnectionFailed),
        (Curl.Code.unrecoverablePoll, .networkConnectionLost),
    ])
    func rowsThatCannotBeProvokedOnLoopback(curlCode: Int, urlCode: URLError.Code) {
        #expect(CurlError.urlErrorCode(curlCode: curlCode, osErrno: 0) == urlCode)
    }

    /// curl never renumbers a code, so the numbers the engine falls back to on an older libcurl
    /// are the ones a newer one returns.
    @Test func codesNewerThanTheOldestLibcurlHaveTheirReleasedNumbers() {
        #expect(Curl.Code.sslClientCert == 98)
        #expect(Curl.Code.unrecoverablePoll == 99)
        #expect(Curl.Code.tooLarge == 100)
        #expect(Curl.Code.echRequired == 101)
    }

    /// libcurl 7.x says out of memory and 8.6 on CURLE_TOO_LARGE for the same two events; the
    /// words name the limit either way.
    @Test(arguments: [Curl.Code.outOfMemory, Curl.Code.tooLarge])
    func bothCodesForALimitNameIt(code: Int) {
        #expect(CurlError.message(forCode: code, libcurlSaid: "x").contains("100 KiB"))
        #expect(CurlError.message(forCode: code, libcurlSaid: "x", duringBody: true).contains("paused transfer (64 MiB)"))
    }

    /// A reply that is not HTTP is said so whichever code libcurl gives it: 7.x and a fresh
    /// connection on 8.x say an unknown protocol, 8.x on a reused connection a weird reply.
    @Test(arguments: [
        (Curl.Code.unsupportedProtocol, "Unsupported protocol", true),
        (Curl.Code.weirdServerReply, "Invalid status line", true),
        (Curl.Code.weirdServerReply, "Unsupported HTTP/1 subversion in response", true),
        (Curl.Code.weirdServerReply, "Header without colon", false),
    ])
    func aReplyThatIsNotHTTPIsSaidSo(code: Int, said: String, explained: Bool) {
        let text = CurlError.message(forCode: code, libcurlSaid: said)
        #expect(text.hasPrefix("the reply is not HTTP/1.x or later") == explained, "\(text)")
        #expect(text.hasSuffix(said))
    }

    @Test func refusedAndTimedOutConnectsFollowTheErrno() {
        #expect(CurlError.urlErrorCode(curlCode: Curl.Code.couldntConnect, osErrno: ECONNREFUSED) == .cannotConnectToHost)
        #expect(CurlError.urlErrorCode(curlCode: Curl.Code.couldntConnect, osErrno: ETIMEDOUT) == .timedOut)
        // A stale errno from an earlier connect on a pooled handle does not change other rows.
        #expect(CurlError.urlErrorCode(curlCode: Curl.Code.gotNothing, osErrno: ECONNREFUSED) == .badServerResponse)
        #expect(CurlError.urlErrorCode(curlCode: Curl.Code.recvError, osErrno: ECONNREFUSED) == .networkConnectionLost)
    }
}
