#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

struct Product: Decodable, Sendable {
    let id: Int
    let name: String
}

struct ProductAPI: Sendable {
    let baseURL: URL
    let networking: Networking

    func request(forProductID id: Int) -> URLRequest {
        URLRequest(url: baseURL.appending(path: "products/\(id)"))
    }

    // The article's `Networking`, `(Endpoint) -> Future<Data>`, from Courier's.
    func data(for request: URLRequest) -> Future<Data> {
        Future { [networking] in try await networking(request).0 }
    }

    // chain: an ID to a request, then to a Future<Data>, then through the curried
    // Future<Data>.decoded to a Future<Product>.
    var productLoading: @Sendable (Int) -> Future<Product> {
        let loadData = chain(request(forProductID:), to: data(for:))
        return chain(loadData, to: Future<Data>.decoded)
    }

    // combine: fix the ID, for a screen that only needs () -> Future<Product>.
    func loading(productID: Int) -> @Sendable () -> Future<Product> {
        combine(productID, with: productLoading)
    }
}

// In a test the screen gets a function, and no networking at all.
let previewLoading: @Sendable () -> Future<Product> = { Future(value: Product(id: 7, name: "iPad Pro")) }
