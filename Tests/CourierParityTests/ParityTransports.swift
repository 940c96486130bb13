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

/// A transport of each kind with policies of its own, for the cases that show both retry or
/// cache alike; shut down after the case. Each kind gets its own copy of `policies`, so a
/// cache is made for each by `makePolicies`.
struct OwnParityTransports {
    private let urlSessionTransport: URLSessionTransport
    private let curlTransport: CurlTransport

    init(_ makePolicies: () -> Policies) throws {
        let policies = makePolicies()
        urlSessionTransport = URLSessionTransport(configuration: URLSessionTransport.Configuration(policies: policies))
        var curl = CurlTransport.Configuration()
        curl.policies = makePolicies()
        curlTransport = try CurlTransport(configuration: curl)
    }

    var urlSession: ParityTransport {
        ParityTransport(networking: urlSessionTransport.networking, streaming: urlSessionTransport.streaming)
    }

    var curl: ParityTransport { curlTransport.parityTransport }

    func shutdown() async {
        await urlSessionTransport.shutdown()
        await curlTransport.shutdown()
    }
}
