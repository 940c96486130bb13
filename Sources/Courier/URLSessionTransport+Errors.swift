#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLError {
    /// libcurl's messages (7.68 to 8.x) by the failure they report, and what to say before
    /// libcurl's words where those alone would mislead.
    private static let rows: [(fragment: String, code: Code, explanation: String?)] = [
        ("transfer closed with", .networkConnectionLost, nil),
        ("chunked-encoding", .networkConnectionLost, nil),
        ("Recv failure", .networkConnectionLost, nil),
        ("Send failure", .networkConnectionLost, nil),
        ("unencoding", .cannotDecodeContentData, nil),
        ("Unrecognized content encoding", .cannotDecodeContentData, nil),
        ("Nul byte in header", .badServerResponse, nil),
        ("Header without colon", .badServerResponse, nil),
        ("Weird server reply", .badServerResponse, nil),
        ("HTTP/0.9", .badServerResponse, notHTTP),
        ("Unsupported HTTP version", .badServerResponse, notHTTP),
        ("Invalid status line", .badServerResponse, notHTTP),
        ("Out of memory", .dataLengthExceedsMaximum, "a response header line is longer than libcurl accepts (100 KiB)"),
        ("too large", .dataLengthExceedsMaximum, nil),
    ]

    private static let notHTTP = "the reply is not HTTP/1.x or later"

    /// FoundationNetworking's error for a task in the code `CurlTransport` gives for the same
    /// failure.
    ///
    /// FoundationNetworking maps only a few libcurl codes and reports the rest as `.unknown`,
    /// keeping libcurl's message as the description; libcurl's code itself is not kept. The
    /// message is the only trace of what failed, so the rows below read it. A message that
    /// matches no row keeps FoundationNetworking's code.
    static func translated(_ error: any Error, request: URLRequest) -> any Error {
        guard let error = error as? URLError,
              // Only the codes FoundationNetworking gives libcurl failures it does not map: an
              // http(s) request that ends in .unsupportedURL was answered by something other
              // than HTTP.
              error.code == .unknown || error.code == .unsupportedURL
        else { return error }
        let message = (error.userInfo[NSLocalizedDescriptionKey] as? String) ?? ""
        guard let row = rows.first(where: { message.contains($0.fragment) }) else { return error }
        var info = error.userInfo
        if let explanation = row.explanation { info[NSLocalizedDescriptionKey] = "\(explanation); libcurl said: \(message)" }
        info[NSUnderlyingErrorKey] = error
        return URLError(row.code, userInfo: info)
    }
}
