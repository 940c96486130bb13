import Courier
import Foundation

func retryingClient(baseURL: URL) -> APIClient {
    var policies = Policies()
    policies.retries = .standard                    // 3 attempts, up to 0.5 s then 1 s apart
    policies.retries.maximumRetryTime = 10          // no retry begins past 10 s
    policies.totalDeadline = 30                     // attempts and waits included
    let transport = URLSessionTransport(configuration: URLSessionTransport.Configuration(policies: policies))
    return APIClient(baseURL: baseURL, transport: transport)   // heads keep their attempts
}

func placeOrder(_ order: Data, key: String, with client: APIClient) async throws(APIError) -> Data {
    // A POST is retried only when it asks to be: this one carries an idempotency key.
    let request = Request<Data>("orders", method: .post(.data(order)), headers: ["Idempotency-Key": key])
    return try await client.send(request.retryingAnyMethod())
}
