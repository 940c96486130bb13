import Foundation
import Testing
@testable import Courier

@Suite("Future decoding")
struct FutureDecodingTests {
    struct Product: Decodable, Equatable {
        let id: Int
        let displayName: String
    }

    @Test func decodesTheInferredType() {
        let data = Data(#"{"id": 1, "displayName": "Kettle"}"#.utf8)
        let product: Future<Product> = Future(value: data).decoded()
        #expect(product.result?.successValue == Product(id: 1, displayName: "Kettle"))
    }

    @Test func usesTheGivenDecoder() {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let data = Data(#"{"id": 2, "display_name": "Lamp"}"#.utf8)
        let product = Future(value: data).decoded(as: Product.self, using: decoder)
        #expect(product.result?.successValue == Product(id: 2, displayName: "Lamp"))
    }

    @Test func failsWithDecodingErrorOnBadJSON() {
        let product = Future(value: Data(#"{"id": "one"}"#.utf8)).decoded(as: Product.self)
        #expect(product.result?.failureError is DecodingError)
    }

    @Test func passesAnUpstreamErrorThrough() {
        let product = Future<Data>(error: FutureTestError(code: 4)).decoded(as: Product.self)
        #expect(product.result?.failureError as? FutureTestError == FutureTestError(code: 4))
    }

    @Test func decodesOnceTheDataArrives() {
        let promise = Promise<Data>()
        let product = promise.future.decoded(as: Product.self)
        #expect(product.result == nil)
        promise.resolve(with: Data(#"{"id": 3, "displayName": "Desk"}"#.utf8))
        #expect(product.result?.successValue == Product(id: 3, displayName: "Desk"))
    }
}
