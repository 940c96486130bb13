#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// Why an exchange produced no HTTP response, reduced to what callers switch on.
public enum ExchangeFailure: Sendable, Equatable, CustomStringConvertible {
    /// A failure on the wire, by `URLError` code; the message and underlying error are dropped
    /// because they name the transport (libcurl's text, FoundationNetworking's).
    case urlError(URLError.Code)
    /// A request refused before anything was sent.
    case requestError(RequestError)
    /// A response that was not an `HTTPURLResponse`.
    case notHTTP
    /// Any other error, by its type and description.
    case other(String)

    /// The failure `error` stands for.
    public init(_ error: any Error) {
        switch error {
        case let error as URLError: self = .urlError(error.code)
        case let error as RequestError: self = .requestError(error)
        default: self = .other("\(type(of: error)): \(error)")
        }
    }

    public var description: String {
        switch self {
        case .urlError(let code): "URLError \(code.rawValue) (\(code.name))"
        case .requestError(let error): "RequestError \(error)"
        case .notHTTP: "a response that is not HTTP"
        case .other(let text): text
        }
    }
}

extension URLError.Code {
    /// The code's name as URLError spells it, for reports.
    var name: String {
        switch self {
        case .cancelled: "cancelled"
        case .badURL: "badURL"
        case .timedOut: "timedOut"
        case .unsupportedURL: "unsupportedURL"
        case .cannotFindHost: "cannotFindHost"
        case .cannotConnectToHost: "cannotConnectToHost"
        case .networkConnectionLost: "networkConnectionLost"
        case .httpTooManyRedirects: "httpTooManyRedirects"
        case .badServerResponse: "badServerResponse"
        case .cannotDecodeContentData: "cannotDecodeContentData"
        case .cannotDecodeRawData: "cannotDecodeRawData"
        case .dataLengthExceedsMaximum: "dataLengthExceedsMaximum"
        case .userAuthenticationRequired: "userAuthenticationRequired"
        case .unknown: "unknown"
        default: "code \(rawValue)"
        }
    }
}
