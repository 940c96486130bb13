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
