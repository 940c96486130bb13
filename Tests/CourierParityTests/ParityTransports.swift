import Courier
import CourierCurl

/// The two transports every case goes through, one of each per test process as an app would
/// hold them. `COURIER_TRANSPORT` is deliberately not read: parity always compares both.
enum ParityTransports {
    static let urlSession: Networking = URLSessionTransport().networking
    static let curl: Result<Networking, CurlError> = Result { () throws(CurlError) in try CurlTransport().networking }
}
