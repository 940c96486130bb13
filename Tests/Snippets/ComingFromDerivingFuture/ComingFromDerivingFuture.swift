#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

struct Jar: Decodable, Sendable {
    let cookies: Int
}

// The article's completion-handler API, as code written before async/await has it.
func data(at url: URL, using networking: @escaping Networking, completion: @escaping @Sendable (Result<Data, any Error>) -> Void) {
    Task {
        do {
            completion(.success(try await networking(URLRequest(url: url)).0))
        } catch {
            completion(.failure(error))
        }
    }
}

// The article's future made from a completion handler is a Promise: its owner completes it.
func data(at url: URL, using networking: @escaping Networking) -> Future<Data> {
    let promise = Promise<Data>()
    data(at: url, using: networking) { result in promise.complete(with: result) }
    return promise.future
}

// From async code, Future(operation:) does the same.
func jar(at url: URL, using networking: @escaping Networking) -> Future<Jar> {
    Future { try await networking(URLRequest(url: url)).0 }.decoded()
}

func countCookies(at url: URL, refillFrom refillURL: URL, using networking: @escaping Networking) -> Future<Int> {
    jar(at: url, using: networking)
        .map(\.cookies)
        .flatMap { count in count > 0 ? Future(value: count) : jar(at: refillURL, using: networking).map(\.cookies) }
        .onValue { count in print("\(count) cookies") }
        .onError { error in print("no cookies: \(error)") }
}

// The article's onResult is observe.
func printJar(at url: URL, using networking: @escaping Networking) {
    jar(at: url, using: networking).observe { result in
        switch result {
        case .success(let jar): print(jar.cookies)
        case .failure(let error): print(error)
        }
    }
}
