#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLError {
    /// FoundationNetworking's error for a task in the code `CurlTransport` gives for the same
    /// failure.
    ///
    /// FoundationNetworking maps only a few libcurl codes and reports the rest as `.unknown`,
    /// keeping libcurl's message as the description; libcurl's code itself is not kept. The
    /// message is the only trace of what failed, so the rows below read it. A message that
    /// matches no row keeps FoundationNetworking's code.
    static func translated(_ error: any Error, request: URLRequest) -> any Error {
        guard let error = error as? URLError else { return error }
        let message = (error.userInfo[NSLocalizedDescriptionKey] as? String) ?? ""
        guard let code = code(for: error.code, libcurlMessage: message) else { return error }
        var info = error.userInfo
        if let detail = detail(for: code, libcurlMessage: message) { info[NSLocalizedDescriptionKey] = detail }
        info[NSUnderlyingErrorKey] = error
        return URLError(code, userInfo: info)
    }

    /// libcurl's messages (7.68 to 8.x) by the failure they report.
    private static let rows: [(fragment: String, code: Code)] = [
        ("transfer closed with", .networkConnectionLost),
        ("chunked-encoding", .networkConnectionLost),
        ("Recv failure", .networkConnectionLost),
        ("Send failure", .networkConnectionLost),
        ("unencoding", .cannotDecodeContentData),
        ("Unrecognized content encoding", .cannotDecodeContentData),
        ("Nul byte in header", .badServerResponse),
        ("HTTP/0.9", .badServerResponse),
        ("Unsupported HTTP version", .badServerResponse),
        ("Invalid status line", .badServerResponse),
        ("Weird server reply", .badServerResponse),
        ("Header without colon", .badServerResponse),
        ("Out of memory", .dataLengthExceedsMaximum),
        ("too large", .dataLengthExceedsMaximum),
    ]

    private static func code(for code: Code, libcurlMessage message: String) -> Code? {
        // Only the codes FoundationNetworking gives libcurl failures it does not map: an
        // http(s) request that ends in .unsupportedURL was answered by something other than HTTP.
        guard code == .unknown || code == .unsupportedURL else { return nil }
        return rows.first { message.contains($0.fragment) }?.code
    }

    private static func detail(for code: Code, libcurlMessage message: String) -> String? {
        switch code {
        case .dataLengthExceedsMaximum: "a response header line is longer than libcurl accepts (100 KiB); libcurl said: \(message)"
        case .badServerResponse: "the reply is not HTTP/1.x or later; libcurl said: \(message)"
        default: nil
        }
    }
}
