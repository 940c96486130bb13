#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation
import Testing
@testable import courier

/// The exit status of each failure, from the typed errors alone: curl's code for the same event.
@Suite struct CurlExitCodeTests {
    static let urlErrors: [(URLError.Code, Int32)] = [
        (.unsupportedURL, 1), (.badURL, 3), (.cannotFindHost, 6), (.dnsLookupFailed, 6),
        (.cannotConnectToHost, 7), (.notConnectedToInternet, 7), (.timedOut, 28),
        (.secureConnectionFailed, 35), (.clientCertificateRequired, 35), (.clientCertificateRejected, 35),
        (.cancelled, 42), (.httpTooManyRedirects, 47), (.badServerResponse, 52), (.zeroByteResource, 52),
        (.networkConnectionLost, 56), (.cannotParseResponse, 8), (.serverCertificateUntrusted, 60),
        (.serverCertificateHasUnknownRoot, 60), (.serverCertificateHasBadDate, 60), (.serverCertificateNotYetValid, 60),
        (.cannotDecodeContentData, 61), (.cannotDecodeRawData, 61), (.dataLengthExceedsMaximum, 63),
        (.requestBodyStreamExhausted, 65), (.unknown, 1), (.fileDoesNotExist, 1),
    ]

    /// What URLSession and the shared policies report, with no CURLcode underneath.
    @Test(arguments: urlErrors)
    func aURLErrorGetsCurlsCodeForItsEvent(code: URLError.Code, expected: Int32) {
        #expect(CurlExitCode.forFailure(URLError(code)) == expected)
    }

    /// libcurl's code is the one curl exits with: the curl engine's failures keep it, also where
    /// URLSession's code is coarser.
    @Test(arguments: [
        (18, URLError.Code.networkConnectionLost), (55, .networkConnectionLost), (92, .networkConnectionLost),
        (5, .cannotFindHost), (97, .cannotConnectToHost), (52, .badServerResponse), (8, .badServerResponse),
        (1, .badServerResponse), (90, .serverCertificateUntrusted), (27, .dataLengthExceedsMaximum),
        (28, .timedOut),
    ] as [(Int, URLError.Code)])
    func aCurlTransferFailureExitsWithItsCURLcode(curlCode: Int, code: URLError.Code) {
        let error = CurlError(kind: .transfer, curlCode: curlCode, message: "libcurl's words").urlError(code: code, url: nil)
        #expect(CurlExitCode.forFailure(error) == Int32(curlCode))
    }

    /// A limit the engine's own callbacks enforce has no CURLcode of curl's: the URLError's
    /// code decides.
    @Test func aLimitTheEngineEnforcedExitsByTheURLErrorCode() {
        let body = CurlError(kind: .responseTooLarge, curlCode: 0, message: "over").urlError(code: .dataLengthExceedsMaximum, url: nil)
        #expect(CurlExitCode.forFailure(body) == 63)
        let internalError = CurlError(kind: .transfer, curlCode: 0, message: "internal").urlError(code: .unknown, url: nil)
        #expect(CurlExitCode.forFailure(internalError) == 1)
    }

    @Test func aRefusedRequestExitsByWhatWasRefused() {
        #expect(CurlExitCode.forFailure(RequestError.invalidURL("http://[")) == 3)
        #expect(CurlExitCode.forFailure(RequestError.missingBaseURL(path: "a")) == 3)
        #expect(CurlExitCode.forFailure(RequestError.unsupportedScheme("ftp", url: "ftp://h/")) == 1)
        #expect(CurlExitCode.forFailure(RequestError.unsupportedOption("use a proxy", transport: "URLSessionTransport", supportedBy: "CurlTransport")) == 4)
        #expect(CurlExitCode.forFailure(RequestError.invalidHeader(name: "X", reason: "CR")) == 64)
        #expect(CurlExitCode.forFailure(RequestError.invalidMethod("G T")) == 64)
        #expect(CurlExitCode.forFailure(RequestError.bodyEncodingFailed(description: "no")) == 1)
    }

    @Test func aCurlErrorThrownAsItIsExitsByItsKind() {
        #expect(CurlExitCode.forFailure(CurlError(kind: .clientCertificateUnusable, curlCode: 58, message: "missing")) == 58)
        #expect(CurlExitCode.forFailure(CurlError(kind: .option, curlCode: 4, message: "no HTTP/2")) == 4)
        #expect(CurlExitCode.forFailure(CurlError(kind: .option, curlCode: 0, message: "bad route")) == 2)
        #expect(CurlExitCode.forFailure(CurlError(kind: .globalInit, curlCode: 0, message: "no")) == 2)
        #expect(CurlExitCode.forFailure(CurlError.transportShutDown) == 1)
    }

    @Test func anyOtherErrorExitsOne() {
        #expect(CurlExitCode.forFailure(CocoaError(.fileReadUnknown)) == 1)
    }

    @Test(arguments: [("ftp://127.0.0.1/file", Int32(1)), ("FILE:///etc/passwd", 1), ("not a url", 3), ("/relative/path", 3), ("http://", 3)])
    func aRefusedCommandLineURLExitsOneForItsSchemeElseThree(text: String, expected: Int32) {
        #expect(RequestURL.curlExitCode(rejecting: text) == expected)
    }
}
