#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// Downloads `url` into `file`, picking up where a dropped connection left it.
func downloadImage(from url: URL, to file: URL, transport: some HTTPTransport) async throws -> URLResponse {
    var retries = 0
    while true {
        do {
            // 200: written whole; 206: resumed; 416: it was complete already.
            return try await transport.download(for: URLRequest(url: url), to: file)
        } catch let error as URLError where error.code == .networkConnectionLost && retries < 3 {
            retries += 1                                // what arrived stays, ready to resume
        }
    }
}
