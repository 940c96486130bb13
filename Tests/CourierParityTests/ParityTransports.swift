import Courier
import CourierCurl

/// The two transports every case goes through, one of each per test process as an app would
/// hold them. `COURIER_TRANSPORT` is deliberately not read: parity always compares both.
/// URLSession decodes every content coding, as libcurl does, so the engines are compared on the
/// same exchange; its default `.identityOnly` is covered by the transport suite.
enum ParityTransports {
    static let urlSession: Networking = URLSessionTransport(configuration: .init(contentDecoding: .all)).networking
    static let curl: Result<Networking, CurlError> = Result { () throws(CurlError) in try CurlTransport().networking }
}
