#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A layer that sends a credential to one origin and refreshes it when it expires or is
/// rejected, once for every request that saw it rejected.
///
/// Put it in ``Policies/callLayers``. Before a request to `origin` goes out, the layer adds the
/// current ``Credential`` as `Authorization`, refreshing it first when there is none yet or it
/// expires within `refreshMargin`. When the answer is 401 from that origin, the credential is
/// refreshed and the request sent once more with the new one: N requests rejected together
/// cause one refresh, and a request rejected with a credential that another has replaced since
/// is sent again at once. When the refresh throws, every request waiting on it fails with an
/// ``AuthenticationError``, and the next request tries again.
///
/// ```swift
/// let authentication = Authentication(origin: URL(string: "https://api.example.com")!) { current in
///     let token = try await fetchToken(replacing: current)
///     return .bearer(token.value, expiration: token.expiration)
/// }
/// var policies = Policies()
/// policies.callLayers = [authentication]
/// ```
///
/// The credential never leaves its origin: a request to another origin passes untouched, a
/// redirect to another origin drops `Authorization` (the redirect policy), and a 401 from
/// another origin is handed back as it is. No layer of Courier's logs, records or traces
/// request fields, and ``Credential`` and ``AuthenticationError`` describe themselves without
/// it. A request that carries its own `Authorization` is left alone. The refresh runs in a
/// task of its own, so one waiting request cancelled does not cancel it for the others; a
/// request sent again after a refresh is a second call through the policies, with a total
/// deadline of its own. A body streamed from ``RequestBody/stream(_:length:)``, which can be
/// read once, is not sent again: its 401 is the answer.
public final class Authentication: HTTPExchangeLayer {
    /// Scheme, host and port the credential is for.
    public let origin: URL
    private let refreshMargin: TimeInterval
    private let refresh: (@Sendable (Credential?) async throws -> Credential)?
    private let now: @Sendable () -> Date
    private let state: Locked<(machine: CredentialState<Waiter>, nextID: Int)>

    typealias Waiter = CheckedContinuation<(Credential, generation: Int), any Error>

    /// Sends `credential` with every request to `origin` and never refreshes it: a token an app
    /// was given, an API key. A 401 is the answer, as the server gave it.
    ///
    /// ```swift
    /// policies.callLayers = [Authentication(origin: baseURL, credential: .bearer(token))]
    /// ```
    public convenience init(origin: URL, credential: Credential) {
        self.init(origin: origin, credential: credential, refreshMargin: 0, now: { Date() }, refresh: nil)
    }

    /// Sends a credential to `origin`, made by `refresh` when there is none yet, when it expires
    /// within `refreshMargin`, and after a 401 from there.
    ///
    /// - Parameters:
    ///   - origin: Where the credential is sent: requests with the same scheme, host and port.
    ///   - credential: The credential to start with; nil to refresh before the first request.
    ///   - refreshMargin: How many seconds before its ``Credential/expiration`` a credential is
    ///     refreshed; 30 by default.
    ///   - refresh: Makes a new credential. Its argument is the current credential, the one
    ///     expiring or rejected (so that a refresh token it was issued with can be looked up);
    ///     nil at first, when no `credential` was given and none has been made yet.
    public convenience init(
        origin: URL, credential: Credential? = nil, refreshMargin: TimeInterval = 30,
        refresh: @escaping @Sendable (_ replacing: Credential?) async throws -> Credential
    ) {
        self.init(origin: origin, credential: credential, refreshMargin: refreshMargin, now: { Date() }, refresh: refresh)
    }

    /// With the clock given, for tests.
    package init(
        origin: URL, credential: Credential?, refreshMargin: TimeInterval, now: @escaping @Sendable () -> Date,
        refresh: (@Sendable (Credential?) async throws -> Credential)?
    ) {
        self.origin = origin
        self.refreshMargin = refreshMargin
        self.refresh = refresh
        self.now = now
        state = Locked((CredentialState(credential: credential), 0))
    }

    /// Sends `request` with the credential when it goes to ``origin`` and carries no
    /// `Authorization` of its own, and once more with a new one after a 401 from there.
    public func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        guard let url = request.url, RedirectPolicy.origin(of: url) == RedirectPolicy.origin(of: origin),
              request.value(forHTTPHeaderField: "Authorization") == nil
        else { return try await next(request) }
        let (now, margin) = (now(), refreshMargin)
        let (credential, generation) = try await credential(for: request) { machine, id, waiter, cancelled in
            machine.credentialNeeded(at: now, margin: margin, id: id, waiter: waiter, isCancelled: cancelled)
        }
        let (body, head) = try await next(request.authorized(with: credential))
        // A 401 from another origin, after a redirect, says nothing of this credential.
        guard refresh != nil, head.statusCode == 401, head.url.map({ RedirectPolicy.origin(of: $0) == RedirectPolicy.origin(of: origin) }) ?? true,
              request.httpBodyStream == nil
        else { return (body, head) }
        let (renewed, _) = try await self.credential(for: request) { machine, id, waiter, cancelled in
            machine.rejected(generation: generation, id: id, waiter: waiter, isCancelled: cancelled)
        }
        do {
            return try await next(request.authorized(with: renewed))
        } catch let error as URLError where error.code == .requestBodyStreamExhausted {
            // The body went with the first send; its answer stands.
            return (body, head)
        }
    }

    /// The credential `event` decides on: at once, or once the one refresh has ended.
    private func credential(
        for request: URLRequest,
        _ event: @escaping (inout CredentialState<Waiter>, Int, Waiter, Bool) -> CredentialState<Waiter>.NeedAction
    ) async throws -> (Credential, generation: Int) {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (waiter: Waiter) in
                    let action = state.withLock { event(&$0.machine, id, waiter, Task.isCancelled) }
                    switch action {
                    case .use(let credential, let generation): waiter.resume(returning: (credential, generation))
                    case .startRefresh(let old): startRefresh(from: old)
                    case .wait: break
                    case .cancelled: waiter.resume(throwing: CancellationError())
                    }
                }
            } onCancel: {
                state.withLock { $0.machine.cancel(id: id) }?.resume(throwing: CancellationError())
            }
        } catch let failure as RefreshFailure {
            throw AuthenticationError(method: request.httpMethod ?? "GET", url: request.url, underlying: failure.error)
        } catch {
            throw URLError.cancelled(url: request.url)
        }
    }

    /// Runs the refresh in a task of its own and ends every wait with its outcome.
    private func startRefresh(from old: Credential?) {
        Task {
            do {
                let credential = try await refreshed(from: old)
                let (waiters, generation) = state.withLock { $0.machine.refreshed(credential) }
                for waiter in waiters { waiter.resume(returning: (credential, generation)) }
            } catch {
                let waiters = state.withLock { $0.machine.refreshFailed() }
                for waiter in waiters { waiter.resume(throwing: RefreshFailure(error: error)) }
            }
        }
    }
}

/// What the refresh threw, told apart from a waiter's own cancellation.
extension Authentication {
    /// A credential from the refresh closure; a fixed credential stays what it is.
    private func refreshed(from old: Credential?) async throws -> Credential {
        if let refresh { return try await refresh(old) }
        guard let old else { throw URLError(.userAuthenticationRequired) }
        return old
    }
}

private struct RefreshFailure: Error {
    let error: any Error
}

extension URLRequest {
    fileprivate func authorized(with credential: Credential) -> URLRequest {
        var request = self
        request.setValue(credential.authorization, forHTTPHeaderField: "Authorization")
        return request
    }
}
