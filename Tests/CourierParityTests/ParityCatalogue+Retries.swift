import Courier
import CourierParity
import Foundation

extension ParityCatalogue {
    /// Retries decided by the shared policy layer: both engines must fail the same way for the
    /// layer to retry the same way. Each request's `/flaky` key is its own (`{unique}`), so the
    /// two transports' attempts are counted apart; `X-Visit` in the response says how many
    /// requests the server received.
    static let retries: [ParityCase] = [
        ParityCase("retried after two 503s", .get("/flaky/{unique}/2"), retries: policy),
        ParityCase("retried after the server closes the connection", .get("/flaky/{unique}/1?fault=close"), retries: policy),
        ParityCase("503 with Retry-After: 0 retried", .get("/flaky/{unique}/1?retry_after=0"), retries: policy),
        ParityCase(
            "503 with a Retry-After date in the past retried",
            .get("/flaky/{unique}/1?retry_after=Wed,%2021%20Oct%202015%2007:28:00%20GMT"), retries: policy
        ),
        ParityCase("503 with Retry-After beyond the cap returned", .get("/flaky/{unique}/1?retry_after=3600"), retries: policy),
        ParityCase("attempts exhausted return the last response", .get("/flaky/{unique}/5?status=502"), retries: policy),
        ParityCase("404 not retried", .get("/flaky/{unique}/1?status=404"), retries: policy),
        ParityCase("POST not retried", .send("POST", "/flaky/{unique}/1", body: Data("order".utf8)), retries: policy),
        ParityCase(
            "POST retried when the request opts in",
            .send("POST", "/flaky/{unique}/1", body: Data("order".utf8), headers: [(RetryPolicy.requestField, "always")]),
            retries: policy
        ),
        ParityCase(
            "GET not retried when the request opts out", .get("/flaky/{unique}/1", headers: [(RetryPolicy.requestField, "never")]),
            retries: policy
        ),
        ParityCase(
            "refused connection, attempts exhausted",
            RequestSpec(method: "GET", location: .refusingPort("/get")), comparing: .response, retries: policy
        ),
        ParityCase(
            "streamed GET retried at the head", .get("/flaky/{unique}/1"), action: .stream(readDelay: nil), retries: policy
        ),
        ParityCase(
            "streamed upload not retried",
            .send("PUT", "/flaky/{unique}/1", body: Data("chunked body".utf8)),
            action: .streamUpload(chunkSize: 4, declaresLength: false), retries: policy
        ),
    ]

    /// Three attempts, 10 ms apart, without jitter.
    private static let policy = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, jitter: 0)
}
