import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension HTTPBody {
    /// A body that yields `body`'s chunks as the engine delivers them; it reads the network, so
    /// it can be iterated once.
    convenience init(_ body: ResponseBody, length: Length) {
        self.init(body.map { ArraySlice($0) }, length: length, iterationBehavior: .single)
    }
}

extension HTTPBody.Length {
    /// The length `response` declares for its body as it will be read: its `Content-Length`,
    /// unless a `Content-Encoding` means the engine may hand over more bytes once decoded.
    init(_ response: HTTPResponse) {
        let encoding = response.headerFields[.contentEncoding]?.lowercased()
        if encoding == nil || encoding == "identity",
            let text = response.headerFields[.contentLength], let length = Int64(text), length >= 0
        {
            self = .known(length)
        } else {
            self = .unknown
        }
    }
}
