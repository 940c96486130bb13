import Foundation
import Testing
@testable import CourierCurl

/// A continuation or a handle that only says who it is.
private struct Token: Hashable, CustomStringConvertible {
    let name: String
    var description: String { name }
}

private typealias Machine = CurlTransferState<Token, Token>

private struct Failure: Error, Equatable {
    let reason: String
}

/// Everything a sequence of events made the machine do, as the event loop would perform it.
private struct Ledger {
    var resumed: [Token: [String]] = [:]
    var released: [Token: Int] = [:]
    var bodyEndings: [String] = []
    var repauses: [(receive: Bool, send: Bool)] = []
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
            released[handle, default: 0] += 1
        }
    }

    mutating func record(_ action: Machine.StartFailureAction) {
        switch action {
        case .fail(let continuation, let error, let handle):
            if let handle { released[handle, default: 0] += 1 }
            record(.failure(continuation, error))
        case .violation(let violation, let handle):
            record(violation)
            if let handle { released[handle, default: 0] += 1 }
        }
    }

    mutating func record(_ action: Machine.HeadAction) {
        switch action {
        case .none: break
        case .handOverHead(let continuation): record(.head(continuation))
        case .abort(let violation): violations.append(violation)
        }
    }

    mutating func record(_ action: Machine.PauseAction) {
        if case .abort(let violation) = action { violations.append(violation) }
    }

    mutating func record(_ action: Machine.UnpauseAction) {
        if case .repause(_, let receive, let send) = action { repauses.append((receive, send)) }
    }

    mutating func record(_ action: Machine.CompleteAction) {
        switch action {
        case .remove(let handle, let notice):
            released[handle, default: 0] += 1
            record(notice)
        case .violation(let violation):
            record(violation)
        }
    }

    mutating func record(_ action: Machine.EndAction) {
        switch action {
        case .none: break
        case .notify(let notice): record(notice)
        case .remove(let handle, let notice):
            released[handle, default: 0] += 1
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
        case .exchange(let continuation): resumed[continuation, default: []].append("exchange")
        case .head(let continuation): resumed[continuation, default: []].append("head")
        case .failure(let continuation, let error): resumed[continuation, default: []].append("failure(\(reason(error)))")
        case .bodyFinished: bodyEndings.append("finish")
        case .bodyFailed(let error): bodyEndings.append("fail(\(reason(error)))")
        }
    }
}

/// The events the curl thread and the awaiting task can send, each only where the engine sends
/// it: the loop never reports a head before the transfer runs, for instance.
private enum Event: CaseIterable {
    case submit, cancel, start, startFails, head, readerFull, readerDrained, uploadStarved, uploadReadable
    case completes, fails, ends

    func isPossible(in phase: Machine.Phase, streams: Bool) -> Bool {
        switch self {
        case .submit: phase == .created
        case .cancel, .ends: true
        case .start, .startFails: phase == .queued
        case .head: phase == .running || (streams && (phase == .streaming || phase == .pausedByBackPressure))
        case .readerFull: phase == .streaming
        case .readerDrained: true
        case .uploadStarved: phase == .running || phase == .streaming || phase == .pausedByBackPressure
        case .uploadReadable: true
        case .completes, .fails: phase == .running || phase == .streaming || phase == .pausedByBackPressure
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
            if machine.shouldStart() {
                ledger.record(machine.startFailed(Failure(reason: "start"), handle: Token(name: "handle")))
            }
        case .head: ledger.record(machine.headReceived())
        case .readerFull: ledger.record(machine.readerFull())
        case .readerDrained: ledger.record(machine.readerDrained())
        case .uploadStarved: ledger.record(machine.uploadStarved())
        case .uploadReadable: ledger.record(machine.uploadReadable())
        case .completes: ledger.record(machine.completed(nil))
        case .fails: ledger.record(machine.completed(Failure(reason: "libcurl")))
        case .ends: ledger.record(machine.end(with: Failure(reason: "shutdown")))
        }
    }
}

@Suite("CurlTransferState: one transfer's lifecycle, without libcurl")
struct CurlTransferStateTests {
    /// Every sequence of up to six possible events, from creation: the continuation is resumed
    /// at most once and exactly once when the transfer has ended, every handle taken is given
    /// back exactly once, and nothing is reported as impossible.
    @Test(arguments: [false, true])
    func everyOrderResumesOnceAndReleasesEveryHandle(streams: Bool) {
        // A work list, not recursion: test tasks run on small stacks.
        struct Node {
            var machine: Machine
            var ledger = Ledger()
            /// The awaiting task offered its continuation (the submit event happened).
            var offered = false
            var submitted = false
            var started = false
            var path: [Event] = []
        }
        var pending = [Node(machine: Machine(streams: streams))]
        var checked = 0
        while let node = pending.popLast() {
            checked += 1
            let path = node.path
            let ledger = node.ledger
            let resumes = ledger.resumed[Token(name: "continuation")]?.count ?? 0
            if resumes > 1 { Issue.record("resumed \(resumes) times after \(path)") }
            if !ledger.violations.isEmpty { Issue.record("\(ledger.violations) after \(path)") }
            if ledger.bodyEndings.count > 1 { Issue.record("body ended twice after \(path)") }
            let handleReleases = ledger.released[Token(name: "handle"), default: 0]
            if node.machine.phase == .finished {
                // Cancelled before the awaiting task submitted: it is resumed when it does.
                if resumes != (node.offered ? 1 : 0) { Issue.record("resumed \(resumes) times by the end of \(path)") }
                if handleReleases != (node.started ? 1 : 0) { Issue.record("handle given back \(handleReleases) times after \(path)") }
            } else if handleReleases != 0 {
                Issue.record("handle given back before the end after \(path)")
            }
            guard path.count < 6 else { continue }
            for event in Event.allCases where event.isPossible(in: node.machine.phase, streams: streams) {
                // The loop only sees what was submitted to it.
                if event == .start || event == .startFails, !node.submitted { continue }
                var next = node
                let wasQueued = node.machine.phase == .queued
                event.apply(to: &next.machine, &next.ledger, submitted: &next.submitted)
                if wasQueued, event == .start || event == .startFails { next.started = true }
                if event == .submit { next.offered = true }
                next.path.append(event)
                pending.append(next)
            }
        }
        #expect(checked > 1000)
    }

    @Test func aBufferedTransferGetsItsExchangeAndGivesItsHandleBack() {
        var machine = Machine(streams: false)
        var ledger = Ledger()
        let submitted = machine.submit(Token(name: "c"))
        let shouldStart = machine.shouldStart()
        #expect(shouldStart)
        guard case .handToLoop = submitted else {
            Issue.record("the submission was refused")
            return
        }
        ledger.record(machine.started(Token(name: "h")))
        ledger.record(machine.headReceived())
        #expect(machine.phase == .running)
        ledger.record(machine.completed(nil))
        #expect(ledger.resumed == [Token(name: "c"): ["exchange"]])
        #expect(ledger.released == [Token(name: "h"): 1])
        #expect(machine.phase == .finished)
    }

    /// A machine whose transfer, continuation "c", was submitted and started on handle "h".
    private static func running(streams: Bool) -> (Machine, Ledger) {
        var machine = Machine(streams: streams)
        var ledger = Ledger()
        ledger.record(machine.submit(Token(name: "c")))
        ledger.record(machine.started(Token(name: "h")))
        return (machine, ledger)
    }

    @Test func aStreamedTransferHandsTheHeadOverThenEndsTheBody() {
        var (machine, ledger) = Self.running(streams: true)
        ledger.record(machine.headReceived())
        #expect(ledger.resumed == [Token(name: "c"): ["head"]])
        #expect(machine.phase == .streaming)
        ledger.record(machine.readerFull())
        #expect(machine.phase == .pausedByBackPressure)
        #expect(machine.isPaused)
        ledger.record(machine.readerDrained())
        #expect(ledger.repauses.count == 1)
        #expect(ledger.repauses.first?.receive == false)
        // Trailers come through the header callback as well; they are not a second head.
        ledger.record(machine.headReceived())
        ledger.record(machine.completed(nil))
        #expect(ledger.bodyEndings == ["finish"])
        #expect(ledger.released == [Token(name: "h"): 1])
        #expect(ledger.resumed[Token(name: "c")] == ["head"])
    }

    @Test func pausesKeepTheOtherDirectionPaused() {
        var (machine, ledger) = Self.running(streams: true)
        ledger.record(machine.uploadStarved())
        ledger.record(machine.headReceived())
        ledger.record(machine.readerFull())
        ledger.record(machine.uploadReadable())
        #expect(ledger.repauses.last.map { [$0.receive, $0.send] } == [true, false])
        ledger.record(machine.readerDrained())
        #expect(ledger.repauses.last.map { [$0.receive, $0.send] } == [false, false])
        // Nothing to resume twice.
        ledger.record(machine.readerDrained())
        ledger.record(machine.uploadReadable())
        #expect(ledger.repauses.count == 2)
    }

    @Test func aCancelBeforeSubmissionRefusesTheSubmission() {
        var machine = Machine(streams: false)
        guard case .none = machine.cancelRequested(Failure(reason: "cancelled")) else {
            Issue.record("the loop was asked to end a transfer it never got")
            return
        }
        var ledger = Ledger()
        let action = machine.submit(Token(name: "c"))
        ledger.record(action)
        guard case .refuse = action else {
            Issue.record("the submission was not refused")
            return
        }
        #expect(ledger.resumed == [Token(name: "c"): ["failure(cancelled)"]])
        #expect(machine.phase == .finished)
    }

    @Test(arguments: ["queued", "running", "streaming", "pausedByBackPressure"])
    func shutdownInEveryPhaseResumesTheWaiterOrFailsTheBody(phaseName: String) {
        let phases: [String: Machine.Phase] = [
            "queued": .queued, "running": .running, "streaming": .streaming, "pausedByBackPressure": .pausedByBackPressure,
        ]
        guard let phase = phases[phaseName] else {
            Issue.record("no phase \(phaseName)")
            return
        }
        var machine = Machine(streams: true)
        var ledger = Ledger()
        _ = machine.submit(Token(name: "c"))
        if phase != .queued {
            _ = machine.shouldStart()
            ledger.record(machine.started(Token(name: "h")))
        }
        if phase == .streaming || phase == .pausedByBackPressure { ledger.record(machine.headReceived()) }
        if phase == .pausedByBackPressure { ledger.record(machine.readerFull()) }
        #expect(machine.phase == phase)
        ledger.record(machine.end(with: Failure(reason: "shutdown")))
        #expect(machine.phase == .finished)
        switch phase {
        case .queued, .running:
            #expect(ledger.resumed[Token(name: "c")] == ["failure(shutdown)"])
            #expect(ledger.bodyEndings.isEmpty)
        default:
            #expect(ledger.resumed[Token(name: "c")] == ["head"])
            #expect(ledger.bodyEndings == ["fail(shutdown)"])
        }
        #expect(ledger.released[Token(name: "h"), default: 0] == (phase == .queued ? 0 : 1))
        // A second end, or libcurl's late report, changes nothing.
        var after = Ledger()
        after.record(machine.end(with: Failure(reason: "again")))
        #expect(after.resumed.isEmpty && after.released.isEmpty && after.bodyEndings.isEmpty)
    }

    @Test func aFailedStartGivesTheHandleBackWithoutRemovingIt() {
        var machine = Machine(streams: false)
        _ = machine.submit(Token(name: "c"))
        _ = machine.shouldStart()
        let action = machine.startFailed(Failure(reason: "start"), handle: Token(name: "h"))
        // Given back, never removed: it did not join the multi handle.
        guard case .fail(let continuation, _, let handle) = action else {
            Issue.record("the start did not fail")
            return
        }
        #expect(continuation == Token(name: "c"))
        #expect(handle == Token(name: "h"))
        #expect(machine.phase == .finished)
    }

    @Test func anImpossibleEventTrapsInDebugBuilds() async {
        await #expect(processExitsWith: .failure) {
            var machine = CurlTransferState<Int, Int>(streams: false)
            _ = machine.completed(nil)
        }
    }
}
