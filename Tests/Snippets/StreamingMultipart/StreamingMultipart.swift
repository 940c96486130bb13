#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

func uploadReport(_ file: URL, titled title: String, with client: APIClient) async throws -> Int {
    let form = MultipartForm([
        .text("title", title),
        .file("report", file, contentType: "application/pdf"),   // read while it is sent
    ])
    let request = Request<ResponseBody>("reports", method: .post)
    let (body, head) = try await client.stream(request, uploading: try .multipart(form))
    _ = try await body.collect(upTo: 1 << 20)
    return head.statusCode
}
