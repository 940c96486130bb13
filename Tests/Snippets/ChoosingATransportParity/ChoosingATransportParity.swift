#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierParity
import Foundation

func disagreements(on urls: [URL]) async throws -> [ParityResult] {
    let requests = urls.map { URLRequest(url: $0) }
    let results = try await parityReport(for: requests)
    for result in results where !result.transportsAgree {
        print(result)   // "differ:", the request, and the first field that differs
    }
    return results.filter { !$0.transportsAgree }
}
