import Foundation

/// The credential an ``Authentication`` layer holds, and its one refresh at a time, as a value:
/// every event returns what the caller must do, and the callers waiting for a refresh are kept
/// here with the state they wait on, so that none is forgotten or resumed twice.
///
/// `Waiter` is a continuation in the layer and anything in tests. Each credential carries a
/// generation, counted up by every refresh that lands, so that a 401 for a credential already
/// replaced sends again with the new one instead of refreshing a second time: N requests that
/// see the old credential rejected cause one refresh.
struct CredentialState<Waiter> {
    /// What to do about a caller that needs a credential.
    enum NeedAction {
        /// Send with this credential; report a rejection with its generation.
        case use(Credential, generation: Int)
        /// The caller was kept and waits; start the one refresh, from this credential.
        case startRefresh(from: Credential?)
        /// The caller was kept and waits for the refresh under way.
        case wait
        /// The caller's task is cancelled: it was not kept.
        case cancelled
    }

    private(set) var credential: Credential?
    private(set) var generation = 0
    /// The callers waiting for the refresh under way, by id; nil when none is under way.
    private var waiters: [(id: Int, waiter: Waiter)]?

    init(credential: Credential?) {
        self.credential = credential
    }

    var isRefreshing: Bool { waiters != nil }

    /// A caller is about to send at `now`. A credential is refreshed first when there is none
    /// or it expires within `margin` seconds.
    mutating func credentialNeeded(
        at now: Date, margin: TimeInterval, id: Int, waiter: Waiter, isCancelled: Bool
    ) -> NeedAction {
        if !isRefreshing, let credential, !credential.expires(within: margin, of: now) {
            return .use(credential, generation: generation)
        }
        return keep(id: id, waiter: waiter, isCancelled: isCancelled)
    }

    /// A caller's request was answered 401 with the credential of `rejected`'s generation. A
    /// credential replaced since is used at once; otherwise the one refresh starts, or is
    /// waited for.
    mutating func rejected(
        generation rejected: Int, id: Int, waiter: Waiter, isCancelled: Bool
    ) -> NeedAction {
        if !isRefreshing, rejected < generation, let credential {
            return .use(credential, generation: generation)
        }
        return keep(id: id, waiter: waiter, isCancelled: isCancelled)
    }

    /// The refresh ended with a new credential: the waiters to resume with it, and its
    /// generation.
    mutating func refreshed(_ credential: Credential) -> (waiters: [Waiter], generation: Int) {
        self.credential = credential
        generation += 1
        defer { waiters = nil }
        return (waiters?.map(\.waiter) ?? [], generation)
    }

    /// The refresh failed: the waiters to fail with its error. The next caller starts another.
    mutating func refreshFailed() -> [Waiter] {
        defer { waiters = nil }
        return waiters?.map(\.waiter) ?? []
    }

    /// The caller `id` was cancelled: its waiter, to resume with the cancellation, if it is
    /// still kept.
    mutating func cancel(id: Int) -> Waiter? {
        guard let index = waiters?.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters?.remove(at: index).waiter
    }

    private mutating func keep(id: Int, waiter: Waiter, isCancelled: Bool) -> NeedAction {
        // Checked under the same lock as `cancel(id:)`: a task cancelled before it is kept is
        // seen here, one cancelled after is found by `cancel(id:)`.
        guard !isCancelled else { return .cancelled }
        if waiters != nil {
            waiters?.append((id, waiter))
            return .wait
        }
        waiters = [(id, waiter)]
        return .startRefresh(from: credential)
    }
}
