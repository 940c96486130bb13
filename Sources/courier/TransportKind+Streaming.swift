#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

extension TransportKind {
    /// A new transport of this kind as a `StreamingNetworking` value with `policies` over it,
    /// for `-o`, whose body is written as it arrives.
    func makeStreaming(policies: Policies, curl: CurlTransport.Configuration = .init()) throws -> StreamingNetworking {
        try makeTransport(policies: policies, curl: curl).streaming
    }
}
