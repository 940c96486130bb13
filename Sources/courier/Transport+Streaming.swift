#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

extension Transport {
    /// A new transport of this kind as a `StreamingNetworking` value with `policies` over it,
    /// for `-o`, whose body is written as it arrives.
    func makeStreaming(policies: Policies) throws -> StreamingNetworking {
        switch self {
        case .urlSession:
            var configuration = URLSessionTransport.Configuration()
            configuration.policies = policies
            return URLSessionTransport(configuration: configuration).streaming
        case .curl:
            var configuration = CurlTransport.Configuration()
            configuration.policies = policies
            return try CurlTransport(configuration: configuration).streaming
        }
    }
}
