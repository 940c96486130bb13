import Testing
@testable import CourierCurl

/// A continuation or a handle that only says who it is.
private struct Token: Hashable, CustomStringConvertible {
    let name: String
    var description: String { name }
}

private typealias Machine = CurlConnectAttemptState<Token, Token>

private struct Failure: Error, Equatable {
    let reason: String
}

/// Everything a sequence of events made the machine do, as the event loop would perform it.
private struct Ledger {
    var resumed: [Token: [String]] = [:]
    var handedOver: [Token: Int] = [:]
    var discarded: [Token: Int] = [:]
    var violations: [String] = []

    mutating func record(_ action: Machine.SubmitAction) {
        switch action {
        case .handToLoop: break
        case .refuse(let continuation, let error): record(.failure(continuation, error))
        case .violation(let violation, let continuation, let error):
            record(violation)
            record(.failure(continuation, error))
        }
    }

    mutating func record(_ action: Machine.StartAction) {
        if case .violation(let violation, let handle) = action {
            record(violation)
            discarded[handle, default: 0] += 1
        }
    }

    mutating func record(_ action: Machine.StartFailureAction) {
        switch action {
        case .fail(let continuation, let error): record(.failure(continuation, error))
        case .violation(let violation): record(violation)
        }
    }

    mutating func record(_ action: Machine.CompleteAction) {
        switch action {
        case .handOver(let handle, let notice):
            handedOver[handle, default: 0] += 1
            record(notice)
        case .discard(let handle, let notice):
            discarded[handle, default: 0] += 1
            record(notice)
        case .violation(let violation):
            record(violation)
        }
    }

    mutating func record(_ action: Machine.EndAction) {
        switch action {
        case .none: break
        case .notify(let notice): record(notice)
        case .discard(let handle, let notice):
            discarded[handle, default: 0] += 1
            record(notice)
        }
    }

    private mutating func record(_ violation: Machine.Violation) {
        record(violation.ended)
        violations.append(violation.message)
    }

    private mutating func record(_ notice: Machine.Notice) {
        func reason(_ error: any Error) -> String { (error as? Failure)?.reason ?? "\(error)" }
        switch notice {
        case .connected(let continuation, let handle): resumed[continuation, default: []].append("connected(\(handle))")
        case .failure(let continuation, let error): resumed[continuation, default: []].append("failure(\(reason(error)))")
        }
    }
}

/// The events the curl thread and the awaiting task can send, each only where the engine sends
/// it: libcurl reports an attempt done only while it connects, for instance.
private enum Event: CaseIterable {
    case submit, cancel, start, startFails, connects, fails, shutDown

    func isPossible(in phase: Machine.Phase) -> Bool {
        switch self {
        case .submit: phase == .created
        case .cancel, .shutDown: true
        case .start, .startFails: phase == .queued
        case .connects, .fails: phase == .connecting
        }
    }

    /// Applies the event as the engine does; `submitted` says whether the curl thread got it.
    func apply(to machine: inout Machine, _ ledger: inout Ledger, submitted: inout Bool) {
        switch self {
        case .submit:
            let action = machine.submit(Token(name: "continuation"))
            if case .handToLoop = action { submitted = true }
            ledger.record(action)
        case .cancel:
            if case .endOnLoop = machine.cancelRequested(Failure(reason: "cancelled")) {
                ledger.record(machine.end(with: Failure(reason: "cancelled")))
            }
        case .start:
            if machine.shouldStart() { ledger.record(machine.started(Token(name: "handle"))) }
        case .startFails:
            if machine.shouldStart() { ledger.record(machine.startFailed(Failure(reason: "start"))) }
        case .connects: ledger.record(machine.completed(nil))
        case .fails: ledger.record(machine.completed(Failure(reason: "refused")))
        case .shutDown: ledger.record(machine.end(with: Failure(reason: "shutdown")))
        }
    }
}

@Suite("CurlConnectAttemptState: one connect-only attempt's lifecycle, without libcurl")
struct CurlConnectAttemptStateTests {
    /// Every sequence of up to six possible events, from creation: the continuation is resumed
    /// at most once, and exactly once when the attempt has ended; a handle that joined a multi
    /// handle leaves the loop exactly once, handed over only with a connected notice; nothing is
    /// reported as impossible.
    @Test func everyOrderResumesOnceAndLetsGoOfTheHandleOnce() {
        // A work list, not recursion: test tasks run on small stacks.
        struct Node {
            var machine = Machine()
            var ledger = Ledger()
            var offered = false
            var submitted = false
            var started = false
            var path: [Event] = []
        }
        var pending = [Node()]
        var checked = 0
        let continuation = Token(name: "continuation")
        let handle = Token(name: "handle")
        while let node = pending.popLast() {
            checked += 1
            let path = node.path
            let ledger = node.ledger
            let resumes = ledger.resumed[continuation] ?? []
            if resumes.count > 1 { Issue.record("resumed \(resumes) after \(path)") }
            if !ledger.violations.isEmpty { Issue.record("\(ledger.violations) after \(path)") }
            let handedOver = ledger.handedOver[handle, default: 0]
            let discarded = ledger.discarded[handle, default: 0]
            if handedOver > 0, resumes != ["connected(handle)"] {
                Issue.record("handed over with \(resumes) after \(path)")
            }
            if node.machine.phase == .finished {
                // Cancelled before the awaiting task submitted: it is resumed when it does.
                if resumes.count != (node.offered ? 1 : 0) { Issue.record("resumed \(resumes) by the end of \(path)") }
                if handedOver + discarded != (node.started ? 1 : 0) {
                    Issue.record("handle handed over \(handedOver), discarded \(discarded) times after \(path)")
                }
            } else if handedOver + discarded != 0 {
                Issue.record("handle let go before the end after \(path)")
            }
            guard path.count < 6 else { continue }
            for event in Event.allCases where event.isPossible(in: node.machine.phase) {
                // The loop only sees what was submitted to it.
                if event == .start || event == .startFails, !node.submitted { continue }
                var next = node
                let wasQueued = node.machine.phase == .queued
                event.apply(to: &next.machine, &next.ledger, submitted: &next.submitted)
                if wasQueued, event == .start { next.started = true }
                if event == .submit { next.offered = true }
                next.path.append(event)
                pending.append(next)
            }
        }
        #expect(checked > 200)
    }

    @Test func aConnectedAttemptHandsItsHandleOver() {
        var machine = Machine()
        var ledger = Ledger()
        ledger.record(machine.submit(Token(name: "c")))
        #expect(machine.shouldStart())
        ledger.record(machine.started(Token(name: "h")))
        #expect(machine.phase == .connecting)
        #expect(machine.handle == Token(name: "h"))
        ledger.record(machine.completed(nil))
        #expect(ledger.resumed == [Token(name: "c"): ["connected(h)"]])
        #expect(ledger.handedOver == [Token(name: "h"): 1])
        #expect(ledger.discarded.isEmpty)
        #expect(machine.phase == .finished)
        #expect(machine.handle == nil)
    }

    @Test func aFailedAttemptDiscardsItsHandle() {
        var machine = Machine()
        var ledger = Ledger()
        ledger.record(machine.submit(Token(name: "c")))
        ledger.record(machine.started(Token(name: "h")))
        ledger.record(machine.completed(Failure(reason: "refused")))
        #expect(ledger.resumed == [Token(name: "c"): ["failure(refused)"]])
        #expect(ledger.discarded == [Token(name: "h"): 1])
        #expect(ledger.handedOver.isEmpty)
    }

    /// The cancellation reaches the loop after libcurl connected: the connection goes to the
    /// task, which cancellation then finds nothing left to end.
    @Test func aCancellationAfterTheConnectionEndsNothing() {
        var machine = Machine()
        var ledger = Ledger()
        ledger.record(machine.submit(Token(name: "c")))
        ledger.record(machine.started(Token(name: "h")))
        ledger.record(machine.completed(nil))
        guard case .none = machine.cancelRequested(Failure(reason: "cancelled")) else {
            Issue.record("a finished attempt asked the loop to end it")
            return
        }
        ledger.record(machine.end(with: Failure(reason: "cancelled")))
        #expect(ledger.resumed == [Token(name: "c"): ["connected(h)"]])
        #expect(ledger.discarded.isEmpty)
    }

    @Test func anAttemptCancelledBeforeItsSubmissionIsRefusedAtIt() {
        var machine = Machine()
        var ledger = Ledger()
        guard case .none = machine.cancelRequested(Failure(reason: "cancelled")) else {
            Issue.record("an attempt not yet submitted asked the loop to end it")
            return
        }
        let action = machine.submit(Token(name: "c"))
        guard case .refuse = action else {
            Issue.record("expected a refusal, got \(action)")
            return
        }
        ledger.record(action)
        #expect(ledger.resumed == [Token(name: "c"): ["failure(cancelled)"]])
        #expect(!machine.shouldStart())
    }
}
