import Foundation
import Testing

@testable import Courier

/// The credential's lifecycle without a socket: waiters are numbers.
struct CredentialStateTests {
    private let now = Date(timeIntervalSince1970: 1_000_000)
    private let old = Credential.bearer("old")
    private let new = Credential.bearer("new")

    @Test func aCredentialThatDoesNotExpireSoonIsUsedAtOnce() {
        var state = CredentialState<Int>(credential: Credential.bearer("old", expiration: now + 31))
        guard case .use(let credential, let generation) = state.credentialNeeded(at: now, margin: 30, id: 1, waiter: 1, isCancelled: false)
        else { Issue.record("expected the credential to be used"); return }
        #expect(credential.authorization == "Bearer old")
        #expect(generation == 0)
        #expect(!state.isRefreshing)
    }

    @Test func noCredentialOrOneExpiringWithinTheMarginIsRefreshedFirst() {
        var none = CredentialState<Int>(credential: nil)
        #expect(isStart(none.credentialNeeded(at: now, margin: 30, id: 1, waiter: 1, isCancelled: false), from: nil))
        var expiring = CredentialState<Int>(credential: Credential.bearer("old", expiration: now + 30))
        #expect(isStart(expiring.credentialNeeded(at: now, margin: 30, id: 1, waiter: 1, isCancelled: false), from: "Bearer old"))
    }

    @Test func manyRejectionsOfOneCredentialStartOneRefreshAndAllResumeWithItsResult() {
        var state = CredentialState<Int>(credential: old)
        #expect(isStart(state.rejected(generation: 0, id: 1, waiter: 1, isCancelled: false), from: "Bearer old"))
        for id in 2...5 {
            #expect(isWait(state.rejected(generation: 0, id: id, waiter: id, isCancelled: false)))
        }
        // A caller that arrives during the refresh waits for it too.
        #expect(isWait(state.credentialNeeded(at: now, margin: 30, id: 6, waiter: 6, isCancelled: false)))
        let (waiters, generation) = state.refreshed(new)
        #expect(waiters == [1, 2, 3, 4, 5, 6])
        #expect(generation == 1)
        #expect(!state.isRefreshing)
    }

    @Test func aRejectionOfACredentialAlreadyReplacedUsesTheNewOneWithoutRefreshing() {
        var state = CredentialState<Int>(credential: old)
        _ = state.rejected(generation: 0, id: 1, waiter: 1, isCancelled: false)
        _ = state.refreshed(new)
        guard case .use(let credential, let generation) = state.rejected(generation: 0, id: 2, waiter: 2, isCancelled: false)
        else { Issue.record("expected the new credential"); return }
        #expect(credential == new)
        #expect(generation == 1)
    }

    @Test func aRejectionOfTheCurrentCredentialRefreshesAgain() {
        var state = CredentialState<Int>(credential: old)
        _ = state.rejected(generation: 0, id: 1, waiter: 1, isCancelled: false)
        _ = state.refreshed(new)
        #expect(isStart(state.rejected(generation: 1, id: 2, waiter: 2, isCancelled: false), from: "Bearer new"))
    }

    @Test func aFailedRefreshFailsEveryWaiterAndTheNextCallerStartsAnother() {
        var state = CredentialState<Int>(credential: nil)
        _ = state.credentialNeeded(at: now, margin: 30, id: 1, waiter: 1, isCancelled: false)
        _ = state.credentialNeeded(at: now, margin: 30, id: 2, waiter: 2, isCancelled: false)
        #expect(state.refreshFailed() == [1, 2])
        #expect(state.credential == nil)
        #expect(isStart(state.credentialNeeded(at: now, margin: 30, id: 3, waiter: 3, isCancelled: false), from: nil))
    }

    @Test func aCancelledWaiterIsHandedBackOnceAndNotResumedByTheRefresh() {
        var state = CredentialState<Int>(credential: nil)
        _ = state.credentialNeeded(at: now, margin: 30, id: 1, waiter: 1, isCancelled: false)
        _ = state.credentialNeeded(at: now, margin: 30, id: 2, waiter: 2, isCancelled: false)
        #expect(state.cancel(id: 2) == 2)
        #expect(state.cancel(id: 2) == nil)
        #expect(state.refreshed(new).waiters == [1])
        // Cancelled after it was resumed: nothing to hand back.
        #expect(state.cancel(id: 1) == nil)
    }

    @Test func aCallerAlreadyCancelledIsNotKept() {
        var state = CredentialState<Int>(credential: nil)
        guard case .cancelled = state.credentialNeeded(at: now, margin: 30, id: 1, waiter: 1, isCancelled: true)
        else { Issue.record("expected the caller to be refused"); return }
        #expect(!state.isRefreshing)
    }

    @Test func aCredentialDescribesItselfWithoutItsSecret() {
        let credential = Credential.bearer("s3cr3t-token", expiration: now)
        #expect(!"\(credential)".contains("s3cr3t"))
        #expect("\(credential)".hasPrefix("Credential(Bearer"))
    }

    private func isStart(_ action: CredentialState<Int>.NeedAction, from authorization: String?) -> Bool {
        guard case .startRefresh(let old) = action else { return false }
        return old?.authorization == authorization
    }

    private func isWait(_ action: CredentialState<Int>.NeedAction) -> Bool {
        if case .wait = action { true } else { false }
    }
}
