#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Courier

/// FoundationNetworking keeps only libcurl's words for most failures, and libcurl 8 words them
/// differently from 7.x. Each failure below is written as each libcurl version writes it (read
/// off FoundationNetworking's errors on Debian 12's 7.88 and on 8.14), and must come out in the
/// one code `CurlTransport` gives it, whichever library FoundationNetworking has loaded.
@Suite struct URLSessionTransportErrorsTests {
    private let request = URLRequest(url: URL(string: "http://127.0.0.1:1/")!)

    private func translated(_ code: URLError.Code, _ message: String) -> URLError? {
        URLError.translated(URLError(code, userInfo: [NSLocalizedDescriptionKey: message]), request: request) as? URLError
    }

    @Test(arguments: [
        // A body cut short (CURLE_PARTIAL_FILE).
        (URLError.Code.unknown, "transfer closed with 250000 bytes remaining to read", URLError.Code.networkConnectionLost),
        (.unknown, "end of response with 250000 bytes missing", .networkConnectionLost),
        // A status code that is not three digits: 7.x's words, then 8.x's, which
        // FoundationNetworking reports as .unsupportedURL.
        (.unknown, "Invalid status line", .badServerResponse),
        (.unsupportedURL, "Unsupported HTTP/1 subversion in response", .badServerResponse),
        // A header line past libcurl's 100 KiB.
        (.unknown, "Out of memory", .dataLengthExceedsMaximum),
        (.unknown, "A value or data field grew larger than allowed", .dataLengthExceedsMaximum),
        // FoundationNetworking's own parser refused the head and aborted the transfer.
        (.unknown, "Failed writing header", .badServerResponse),
        (.unknown, "Failure writing output to destination, passed 2 returned 0", .badServerResponse),
    ])
    func eachLibcurlsWordsComeOutInOneCode(given: URLError.Code, message: String, expected: URLError.Code) throws {
        let error = try #require(translated(given, message))
        #expect(error.code == expected)
        // The error FoundationNetworking gave stays reachable underneath.
        #expect((error.userInfo[NSUnderlyingErrorKey] as? URLError)?.code == given)
    }

    @Test(arguments: ["Failed writing header", "Failure writing output to destination, passed 2 returned 0"])
    func anUnparsedHeadSaysWhatFoundationNetworkingRefuses(message: String) throws {
        let error = try #require(translated(.unknown, message))
        #expect(error.localizedDescription.contains("no space after the code"))
    }

    @Test func wordsThatMatchNoRowKeepFoundationNetworkingsCode() throws {
        let error = try #require(translated(.unknown, "something libcurl has never said"))
        #expect(error.code == .unknown)
    }
}
