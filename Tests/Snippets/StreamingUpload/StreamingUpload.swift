#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

func uploadBackup(_ file: URL, to url: URL, transport: CurlTransport) async throws -> Data {
    var request = URLRequest(url: url)
    request.httpMethod = "PUT"
    let (reply, _) = try await transport.upload(for: request, fromFile: file) { progress in
        if let fraction = progress.fractionSent {
            print("sent \(Int(fraction * 100)) %")
        }
    }
    return reply
}
