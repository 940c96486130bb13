#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestServer
import Foundation
import Testing
@testable import CourierCurl

@Suite("CurlFeatures: what the linked libcurl offers")
struct CurlFeaturesTests {
    private static func features(zlib: Bool, brotli: Bool, zstd: Bool) -> CurlFeatures {
        CurlFeatures(versionNumber: 0x074C00, zlib: zlib, brotli: brotli, zstd: zstd, http2: false)
    }

    /// Builds libcurl may come as, and the Accept-Encoding each sends for CURLOPT_ACCEPT_ENCODING "".
    @Test(arguments: [
        (features(zlib: true, brotli: true, zstd: true), "deflate, gzip, br, zstd"),
        (features(zlib: true, brotli: true, zstd: false), "deflate, gzip, br"),
        (features(zlib: true, brotli: false, zstd: false), "deflate, gzip"),
        (features(zlib: false, brotli: false, zstd: true), "zstd"),
        (features(zlib: false, brotli: false, zstd: false), "identity"),
    ])
    func acceptEncodingListsOnlyTheDecodersBuiltIn(_ features: CurlFeatures, expected: String) {
        #expect(features.acceptEncoding == expected)
    }

    @Test func featuresAreReadFromTheLinkedLibrary() throws {
        let features = Curl.features
        #expect(features.versionNumber >= 0x074C00, "CourierCurl supports libcurl 7.76 and later")
        let parts = Curl.version.split(separator: ".").prefix(3).map { Int($0.prefix { $0.isNumber }) ?? -1 }
        try #require(parts.count == 3)
        #expect(features.versionNumber == parts[0] << 16 | parts[1] << 8 | parts[2])
    }

    /// The test command runs the suites again on another libcurl, put in place by the loader,
    /// and names the version it means: that run fails rather than pass on the system's library.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["COURIER_EXPECTED_LIBCURL"] != nil, "a run on a named libcurl"))
    func theLinkedLibraryIsTheOneTheRunNames() {
        #expect(Curl.version == ProcessInfo.processInfo.environment["COURIER_EXPECTED_LIBCURL"])
    }

    /// The version-dependent readings, on the versions users run: RHEL 9's 7.76, Debian 12's
    /// 7.88, Ubuntu 24.04's 8.5, and 8.14.
    @Test(arguments: [
        (0x07_4C_00, false, false, true),
        (0x07_58_01, false, false, true),
        (0x08_05_00, true, false, true),
        (0x08_0E_01, true, true, false),
    ])
    func whatEachVersionDoes(versionNumber: Int, reusesH2C: Bool, countsBody: Bool, decodesCredentials: Bool) {
        let features = CurlFeatures(versionNumber: versionNumber, zlib: true, brotli: true, zstd: true, http2: true)
        #expect(features.reusesCleartextHTTP2Connections == reusesH2C)
        #expect(features.requestSizeCountsBody == countsBody)
        #expect(features.decodesProxyCredentials == decodesCredentials)
    }

    /// What libcurl announces is exactly what ``CurlFeatures`` predicts, so no coding it lacks is
    /// ever offered.
    @Test func theEngineAnnouncesWhatTheLinkedLibraryDecodes() async throws {
        try await withCurlTransport { server, transport in
            let echo = try await transport.echo(request(server.url("/get")))
            #expect(echo.header("Accept-Encoding") == Curl.features.acceptEncoding)
        }
    }

    /// A coding the linked libcurl has is decoded; one it lacks, if the server sends it anyway,
    /// fails as URLSession fails an undecodable body rather than reaching the caller encoded.
    @Test(arguments: [("/gzip", "gzip"), ("/deflate", "deflate"), ("/brotli", "br"), ("/zstd", "zstd")])
    func eachCodingIsDecodedOnlyWhereTheLibraryHasIt(path: String, coding: String) async throws {
        try await withCurlTransport { server, transport in
            if Curl.features.contentCodings.contains(coding) {
                let echo = try await transport.echo(request(server.url(path)))
                #expect(echo.path == path)
            } else {
                let code = await urlErrorCode { _ = try await transport.http(request(server.url(path))) }
                #expect(code == .cannotDecodeContentData)
            }
        }
    }
}
