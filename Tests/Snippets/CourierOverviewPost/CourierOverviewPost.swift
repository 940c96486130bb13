import Courier
import Foundation

struct OrderDraft: Encodable, Sendable {
    let item: String
    let quantity: Int
}

struct Order: Decodable, Sendable {
    let id: Int
}

enum OrderFailure: Error {
    case signInAgain
    case rejected(reason: String)
    case tryLater
}

func submit(_ draft: OrderDraft, with client: APIClient) async throws -> Order {
    do {
        return try await client.send(Request("orders", method: .post(.json(draft))))
    } catch {
        switch error.kind {
        case .unauthorized, .forbidden:
            throw OrderFailure.signInAgain
        case .badRequest, .otherClientError:
            throw OrderFailure.rejected(reason: String(decoding: error.body ?? Data(), as: UTF8.self))
        case .serverError, .otherServerError, .transport:
            throw OrderFailure.tryLater
        default:
            throw error
        }
    }
}
