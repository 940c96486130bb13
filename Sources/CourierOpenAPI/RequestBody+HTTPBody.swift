import Courier
import Foundation
import OpenAPIRuntime

extension RequestBody {
    /// `body`'s chunks, read as the request goes out, with its length when it knows it so that
    /// the engine sends a `Content-Length` rather than a chunked body.
    init(_ body: HTTPBody) {
        let length: Int64? = switch body.length {
        case .known(let length): length
        case .unknown: nil
        }
        self = .stream(body.map { Data($0) }, length: length)
    }
}
