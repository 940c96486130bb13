#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

/// The exit status `courier request` gives a failure: curl's exit code for the same failure
/// (curl(1), "EXIT CODES"), so that a script written for curl reads courier's the same way.
///
/// On the curl transport a failure libcurl reported keeps its `CURLcode`, which is what curl
/// exits with; everything else, and every failure on URLSession, is read from the typed error:
/// the `URLError` code, a `RequestError` or a `CurlError`. URLSession gives one code for
/// failures libcurl tells apart, so on it each of those comes out as one of curl's codes.
enum CurlExitCode {
    /// curl's 23: the body could not be written.
    static let writeError: Int32 = 23
    /// curl's 26: a file to send (`-d @file`) or a cookie jar could not be read.
    static let readError: Int32 = 26
    /// curl's 22: `--fail` and a status of 400 or above.
    static let httpError: Int32 = 22
    /// curl's 33: `-C` asked for a range and the answer was not it.
    static let rangeError: Int32 = 33
    /// Not curl's (curl uses 2 for some of them): an unknown option, a missing or malformed
    /// argument, as ArgumentParser exits for a `ValidationError`.
    static let usageError: Int32 = 64
    /// Not curl's, whose `ws://` transfers have no status for it: `courier ws` and a server that
    /// closed the WebSocket with a code other than 1000, 1001 or none. sysexits(3)'s
    /// `EX_PROTOCOL` ("remote error in protocol"), beside `EX_USAGE`'s 64 above; curl's own 76
    /// (`CURLE_OBSOLETE76`) has not been returned since 7.82, so no curl failure reads as it.
    static let webSocketClosed: Int32 = 76

    /// The exit status for `error`, which ended a request.
    static func forFailure(_ error: any Error) -> Int32 {
        switch error {
        case let error as URLError:
            if let curl = CurlError.underlying(of: error), curl.kind == .transfer, curl.curlCode > 0 {
                return Int32(clamping: curl.curlCode)
            }
            return forURLError(error.code)
        case let error as RequestError:
            return forRequestError(error)
        case let error as CurlError:
            return forCurlError(error)
        default:
            return 1
        }
    }

    /// For a `URLError` no `CURLcode` came with: what URLSession or a shared policy reported.
    static func forURLError(_ code: URLError.Code) -> Int32 {
        switch code {
        case .unsupportedURL: 1
        case .badURL: 3
        case .cannotFindHost, .dnsLookupFailed: 6
        case .cannotConnectToHost, .notConnectedToInternet: 7
        // libcurl tells a body cut short (18), a failed send (55) and an HTTP/2 stream reset
        // (92) from a failed receive; URLSession reports all of them as a lost connection.
        case .networkConnectionLost: 56
        case .timedOut: 28
        // The server's verdict on a client certificate arrives as a failed handshake.
        case .secureConnectionFailed, .clientCertificateRequired, .clientCertificateRejected: 35
        case .cancelled: 42
        case .httpTooManyRedirects: 47
        // URLSession says the same for an empty reply and for one that is not HTTP (curl's 8);
        // the empty reply is the common one.
        case .badServerResponse, .zeroByteResource: 52
        case .cannotParseResponse: 8
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid:
            60
        case .cannotDecodeContentData, .cannotDecodeRawData: 61
        case .dataLengthExceedsMaximum: 63
        case .requestBodyStreamExhausted: 65
        default: 1
        }
    }

    /// A request refused before anything was sent.
    static func forRequestError(_ error: RequestError) -> Int32 {
        switch error {
        case .invalidURL, .missingBaseURL: 3
        case .unsupportedScheme: 1
        // curl's 4: "a requested feature, protocol or option was not found built-in".
        case .unsupportedOption: 4
        // Only the command line puts a method or header into the tool's requests.
        case .invalidMethod, .invalidHeader, .invalidTimeout: usageError
        case .bodyEncodingFailed: 1
        }
    }

    /// A `CurlError` thrown as it is: the transport could not be set up, or the client
    /// certificate cannot be used.
    static func forCurlError(_ error: CurlError) -> Int32 {
        switch error.kind {
        // curl's 58: "problem with the local client certificate".
        case .clientCertificateUnusable: 58
        // The option's own CURLcode (4 for a feature this libcurl was built without), else
        // curl's 2, "failed to initialize".
        case .option: error.curlCode > 0 ? Int32(clamping: error.curlCode) : 2
        case .transfer where error.curlCode > 0: Int32(clamping: error.curlCode)
        case .shutDown: 1
        default: 2
        }
    }

}
