#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCurl

/// Where HTTP/3 cannot be spoken, asking for it is refused by name before anything is sent.
@Suite("HTTP/3 refused where it is missing")
struct HTTP3RefusalTests {
    @Test(.enabled(if: !libcurlHasHTTP3, "the linked libcurl has HTTP/3"), arguments: [
        CurlTransport.HTTPVersionPreference.http3, .http3Only,
    ])
    func aLibcurlWithoutHTTP3RefusesItAndSendsNothing(_ version: CurlTransport.HTTPVersionPreference) async throws {
        let listener = try LoopbackListener()
        var configuration = CurlTransport.Configuration()
        configuration.httpVersion = version
        let transport = try CurlTransport(configuration: configuration)
        let url = URL(string: "https://127.0.0.1:\(listener.port)/get")!
        await #expect(throws: RequestError.unsupportedOption(
            "speak HTTP/3 (httpVersion \(version))",
            transport: "CurlTransport (libcurl \(Curl.version), built without HTTP/3)",
            supportedBy: "CurlTransport on a libcurl built with HTTP/3"
        )) {
            _ = try await transport.exchange(URLRequest(url: url))
        }
        await #expect(throws: RequestError.self) {
            _ = try await transport.stream(for: URLRequest(url: url))
        }
        await transport.shutdown()
        #expect(!listener.hasConnection(), "a connection reached the listener")
        #expect(!transport.capabilities.speaksHTTP3)
    }

    @Test func theRefusalSaysWhatWasAskedAndWhereItCanBeHad() throws {
        let without = CurlFeatures(versionNumber: 0x08_0E_01, zlib: true, brotli: true, zstd: true, http2: true, http3: false)
        let refusal = try #require(CurlTransport.HTTPVersionPreference.http3Only.refusal(features: without, libcurlVersion: "8.14.1"))
        #expect(refusal.description == "CurlTransport (libcurl 8.14.1, built without HTTP/3) cannot speak HTTP/3 (httpVersion http3-only); nothing was sent (CurlTransport on a libcurl built with HTTP/3 can)")
    }

    /// The preferences, the HTTP/3 bit and what each libcurl these machines see has: 7.88 (the
    /// system's) and 8.14 with OpenSSL lack HTTP/3, 8.14 with GnuTLS has it.
    @Test(arguments: [
        (CurlFeatures(versionNumber: 0x07_58_01, zlib: true, brotli: true, zstd: true, http2: true, http3: false), false),
        (CurlFeatures(versionNumber: 0x08_0E_01, zlib: true, brotli: true, zstd: true, http2: true, http3: false), false),
        (CurlFeatures(versionNumber: 0x08_0E_01, zlib: true, brotli: true, zstd: true, http2: true, http3: true), true),
    ])
    func eachPreferenceIsRefusedExactlyWhereHTTP3IsMissing(features: CurlFeatures, hasHTTP3: Bool) {
        for version in [CurlTransport.HTTPVersionPreference.http3, .http3Only] {
            #expect((version.refusal(features: features) == nil) == hasHTTP3)
            #expect(version.multiplexes(scheme: "https", features: features))
            #expect(!version.multiplexes(scheme: "http", features: features))
            #expect(version.reusesConnections(scheme: "https", features: features))
        }
        for version in [CurlTransport.HTTPVersionPreference.http1_1, .automatic, .http2PriorKnowledge] {
            #expect(version.refusal(features: features) == nil)
        }
    }

    @Test func thePreferencesAreSpeltAsCurlSpellsTheFlags() {
        #expect(CurlTransport.HTTPVersionPreference.http3.description == "http3")
        #expect(CurlTransport.HTTPVersionPreference.http3Only.description == "http3-only")
        #expect(CurlTransport.HTTPVersionPreference(name: "HTTP3") == .http3)
        #expect(CurlTransport.HTTPVersionPreference(name: "http3-only") == .http3Only)
        #expect(CurlTransport.HTTPVersionPreference.http3.curlValue == 30)
        #expect(CurlTransport.HTTPVersionPreference.http3Only.curlValue == 31)
    }

    /// The bit is libcurl's own: CURL_VERSION_HTTP3 is 1 << 25 in every header that has it.
    @Test func theCapabilityIsTheLinkedLibrarysHTTP3Bit() throws {
        let transport = try CurlTransport()
        #expect(transport.capabilities.speaksHTTP3 == Curl.features.http3)
        #expect(!URLSessionTransport().capabilities.speaksHTTP3)
    }

    /// scripts/test-http3 says which library it built against, so the HTTP/3 cases cannot be
    /// switched off unseen by a build that lost HTTP/3.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["COURIER_EXPECT_HTTP3"] != nil))
    func theLibraryScriptsTestHTTP3ChoseHasHTTP3() {
        #expect(Curl.features.http3 == (ProcessInfo.processInfo.environment["COURIER_EXPECT_HTTP3"] == "1"), "libcurl \(Curl.version)")
    }

    /// URLSession has no HTTP/3 on Linux and no Alt-Svc cache: both are curl-only settings,
    /// which the configuration keys and `courier request` refuse on it by name.
    @Test func onURLSessionHTTP3AndTheAltSvcCacheAreCurlOnlySettings() {
        var configuration = CurlTransport.Configuration()
        configuration.httpVersion = .http3
        configuration.altSvcCache = .inMemory
        #expect(configuration.curlOnlySettings == [.http3, .altSvcCache])
        #expect(configuration.curlOnlySettings.map(\.action) == ["speak HTTP/3", "keep an Alt-Svc cache"])
        configuration.httpVersion = .http3Only
        configuration.altSvcCache = .off
        #expect(configuration.curlOnlySettings == [.http3Only])
    }
}
