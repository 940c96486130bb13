#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import HTTPTypes

extension HTTPResponse {
    /// The status and header fields of `head`, read straight from the engine's head: no
    /// Foundation response is built on the way.
    ///
    /// Fields come in the order the engine kept them, each on its own, so two `Set-Cookie`
    /// fields stay two where the engine kept them apart (`CurlTransport` does;
    /// FoundationNetworking joins repeated fields with ", " before Courier sees them). A field
    /// whose name is not a valid HTTP token is left out, as swift-http-types cannot hold it.
    ///
    /// - Throws: `URLError(.badServerResponse)` when the status is outside 0...999, which
    ///   swift-http-types cannot hold either.
    init(_ head: ResponseHead, for request: URLRequest) throws {
        guard (0...999).contains(head.statusCode) else {
            throw URLError(
                .badServerResponse,
                "the response to \(request.url?.redactedString ?? "the request") has status \(head.statusCode), outside 0...999",
                url: request.url
            )
        }
        self.init(status: .init(code: head.statusCode))
        for field in head.headerFields {
            guard let name = HTTPField.Name(field.name) else { continue }
            headerFields.append(HTTPField(name: name, value: field.value))
        }
    }
}
