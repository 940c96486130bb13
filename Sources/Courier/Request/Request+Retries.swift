import Foundation

extension Request {
    /// This request, retried by ``Policies/retries`` whatever its method: for a POST or PATCH
    /// the server handles idempotently (one that carries an idempotency key, say).
    ///
    /// Sets the `Courier-Retry` field to `always`; the field is removed before the request
    /// is sent. A field, rather than a setting on the client, because it travels
    /// with the request through every ``Networking`` and layer to the one place that retries,
    /// and a `URLRequest` built by hand can carry it too.
    ///
    /// ```swift
    /// let order = Request<Order>("orders", method: .post(body), headers: ["Idempotency-Key": key]).retryingAnyMethod()
    /// ```
    public func retryingAnyMethod() -> Self {
        withRetryField("always")
    }

    /// This request, sent once whatever ``Policies/retries`` says: for a GET with an effect.
    /// Sets the `Courier-Retry` field to `never`.
    public func notRetrying() -> Self {
        withRetryField("never")
    }

    private func withRetryField(_ value: String) -> Self {
        var request = self
        for name in request.headers.keys where name.caseInsensitiveCompare(RetryPolicy.requestField) == .orderedSame {
            request.headers[name] = nil
        }
        request.headers[RetryPolicy.requestField] = value
        return request
    }
}
