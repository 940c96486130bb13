#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

struct Receipt: Decodable {
    var path: String
}

func uploadReport(_ file: URL, titled title: String, with client: APIClient) async throws -> Receipt {
    let form = MultipartForm([
        .text("title", title),
        .file("report", file, contentType: "application/pdf"),   // read while it is sent
    ])
    return try await client.send(Request("reports", method: .post(try .multipart(form))))
}
