import Courier
import CourierParity
import Foundation

extension ParityCatalogue {
    /// Retries decided by the shared policy layer: both engines must fail the same way for the
    /// layer to retry the same way. Each case has a `/flaky` key of its own, which the runner
    /// resets before each transport; `X-Visit` in the response says how many requests the
    /// server received.
    static let retries: [ParityCase] = [
        ParityCase("retried after two 503s", .get("/flaky/retry-1/2"), retries: policy),
        ParityCase("retried after the server closes the connection", .get("/flaky/retry-2/1?fault=close"), retries: policy),
        ParityCase("503 with Retry-After: 0 retried", .get("/flaky/retry-3/1?retry_after=0"), retries: policy),
        ParityCase(
            "503 with a Retry-After date in the past retried",
            .get("/flaky/retry-4/1?retry_after=Wed,%2021%20Oct%202015%2007:28:00%20GMT"), retries: policy
        ),
        ParityCase("503 with Retry-After beyond the cap returned", .get("/flaky/retry-5/1?retry_after=3600"), retries: policy),
        ParityCase("attempts exhausted return the last response", .get("/flaky/retry-6/5?status=502"), retries: policy),
        ParityCase("404 not retried", .get("/flaky/retry-7/1?status=404"), retries: policy),
        ParityCase("POST not retried", .send("POST", "/flaky/retry-8/1", body: Data("order".utf8)), retries: policy),
        ParityCase(
            "POST retried when the request opts in",
            .send("POST", "/flaky/retry-9/1", body: Data("order".utf8), headers: [(RetryPolicy.requestField, "always")]),
            retries: policy
        ),
        ParityCase(
            "GET not retried when the request opts out", .get("/flaky/retry-10/1", headers: [(RetryPolicy.requestField, "never")]),
            retries: policy
        ),
        ParityCase(
            "refused connection, attempts exhausted",
            RequestSpec(method: "GET", location: .refusingPort("/get")), comparing: .response, retries: policy
        ),
        ParityCase(
            "streamed GET retried at the head", .get("/flaky/retry-11/1"), action: .stream(readDelay: nil), retries: policy
        ),
        ParityCase(
            "streamed upload not retried",
            .send("PUT", "/flaky/retry-12/1", body: Data("chunked body".utf8)),
            action: .streamUpload(chunkSize: 4, declaresLength: true), retries: policy
        ),
    ]

    /// Three attempts, 10 ms apart, without jitter.
    private static let policy = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, jitter: 0)
}
