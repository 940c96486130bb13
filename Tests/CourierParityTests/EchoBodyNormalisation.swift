import CourierParity
import CourierTestServer
import Foundation

/// Puts the header list inside the test server's echo bodies (`/get`, `/anything`, `/headers`,
/// …) into name order.
///
/// Those bodies list the request's headers in the order received, and the two transports
/// write their header blocks in different orders, which HTTP gives no meaning. The headers
/// themselves are compared as ``ParityField/receivedHeader(_:)``; everything else in the echo
/// (method, path, query, body) is still compared byte for byte.
enum EchoBodyNormalisation {
    static func normalised(_ outcome: ExchangeOutcome) -> ExchangeOutcome {
        guard case .response(var response) = outcome else { return outcome }
        response.body = normalised(response.body)
        return .response(response)
    }

    private static func normalised(_ body: Data) -> Data {
        let decoder = JSONDecoder()
        if var echo = try? decoder.decode(Echo.self, from: body) {
            echo.headers = sortedByName(echo.headers)
            return encoded(echo) ?? body
        }
        if let list = try? decoder.decode([String: [HTTPHeaderField]].self, from: body), list.keys.sorted() == ["headers"] {
            return encoded(["headers": sortedByName(list["headers"] ?? [])]) ?? body
        }
        return body
    }

    /// Stable, so repeated names keep their relative order.
    private static func sortedByName(_ headers: [HTTPHeaderField]) -> [HTTPHeaderField] {
        headers.enumerated()
            .sorted { ($0.element.name.lowercased(), $0.offset) < ($1.element.name.lowercased(), $1.offset) }
            .map(\.element)
    }

    /// Encoded as the test server encodes, so the byte count (and `Content-Length`) is unchanged.
    private static func encoded(_ value: some Encodable) -> Data? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try? encoder.encode(value)
    }
}
