#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

struct Todo: Codable, Sendable {
    var title: String
    var completed: Bool
}

// WireKit's request types, FindTodos and AddTodo, are values of Request<Response>.
extension Request where Response == [Todo] {
    static var findTodos: Self { Request("todos") }
}

extension Request where Response == Todo {
    static func addTodo(_ todo: Todo) -> Self { Request("todos", method: .post(.json(todo))) }

    // WireKit's body as a dictionary works too, serialized by JSONSerialization.
    static func addTodo(fields: [String: Any]) -> Self { Request("todos", method: .post(.json(fields))) }
}

// A method without a body or query items reads as in the articles.
extension Request where Response == Void {
    static var clearCompleted: Self { Request("todos/clear-completed", method: .post) }
}

struct TodoStore: Sendable {
    let apiClient: APIClient

    init(baseURL: URL, networking: @escaping Networking = URLSessionTransport().networking) {
        apiClient = APIClient(baseURL: baseURL, networking: networking)
    }

    // apiClient.dispatch(FindTodos()) in WireKit.
    func titles() async -> Result<[String], APIError> {
        do throws(APIError) {
            return .success(try await apiClient.send(.findTodos).map(\.title))
        } catch {
            return .failure(error)
        }
    }

    func add(_ todo: Todo) async throws(APIError) -> Todo {
        try await apiClient.send(.addTodo(todo))
    }

    // NetworkDispatcher.dispatch(request:) in WireKit, for a URLRequest built by hand.
    func todos(at url: URL) async throws(APIError) -> [Todo] {
        try await apiClient.dispatcher.dispatch(URLRequest(url: url), as: [Todo].self)
    }
}

// WireKit's NetworkRequestError cases, as APIError.Kind cases.
func message(for error: APIError) -> String {
    switch error.kind {
    case .invalidRequest(let reason): "invalidRequest: \(reason)"
    case .badRequest, .unauthorized, .forbidden, .notFound, .serverError: "\(error.kind)"
    case .otherClientError(let statusCode): "error4xx(\(statusCode))"
    case .otherServerError(let statusCode): "error5xx(\(statusCode))"
    case .decoding(let decodingError): "decodingError: \(decodingError)"
    case .transport(let cause): "urlSessionFailed: \(cause)"
    case .unexpectedStatus, .notHTTP: "unknownError: \(error)"
    }
}
