import Courier
import CourierCurl

/// One transport as the catalogue uses it: its buffered and its streaming entry points.
struct ParityTransport: Sendable {
    var networking: Networking
    var streaming: StreamingNetworking
}

/// The two transports every case goes through, one of each per test process as an app would
/// hold them. `COURIER_TRANSPORT` is deliberately not read: parity always compares both.
/// Both with their default configurations: both decode every content coding.
enum ParityTransports {
    static let urlSession: ParityTransport = {
        let transport = URLSessionTransport()
        return ParityTransport(networking: transport.networking, streaming: transport.streaming)
    }()

    static let curl: Result<ParityTransport, CurlError> = Result { () throws(CurlError) in
        try CurlTransport().parityTransport
    }
}

extension CurlTransport {
    var parityTransport: ParityTransport {
        ParityTransport(networking: networking, streaming: streaming)
    }
}
