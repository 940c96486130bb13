#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Courier
import Synchronization

/// One thread that owns one multi handle and is the only caller of `curl_multi_*` and of
/// anything on an easy handle of its transfers. A transport runs one or several
/// (``CurlEventLoopGroup``), each with its own connections and admission.
///
/// Other threads talk to it through a locked inbox of commands and a wake-up
/// (``CurlSocketEvents/wake()``), sent only when the inbox goes from empty to non-empty while
/// the thread sleeps or is about to (one wake-up per batch, none while it is busy: it looks at
/// the inbox again before it waits). Between batches the thread sleeps until a socket of its
/// transfers is ready or libcurl's timer is due (``CurlSocketEvents``, libcurl's event-driven
/// interface over epoll), so an idle transport costs no CPU. It resumes
/// continuations and does nothing else for the awaiting tasks: responses are parsed and built
/// on those tasks.
///
/// It is also a `TaskExecutor`: a task that prefers it (see ``CurlTransport/executor``) runs
/// between two waits of this thread, so the continuation of its request resumes
/// where the transfer finished and its next request is submitted without a wake-up.
final class CurlEventLoop: TaskExecutor, @unchecked Sendable {
    private enum Command {
        case submit(CurlTransfer)
        case cancel(CurlTransfer)
        /// The reader of a streamed body caught up.
        case resumeReceiving(CurlTransfer)
        /// The producer of a streamed upload buffered more.
        case resumeSending(CurlTransfer)
        /// A connect-only attempt to start (CurlEventLoop+ConnectAttempts.swift).
        case connect(CurlConnectAttempt)
        case cancelConnect(CurlConnectAttempt, any Error)
        /// A job of a task that prefers this executor.
        case run(UnownedJob)
        case shutDown
    }

    private struct Inbox {
        var commands: [Command] = []
        /// No command is accepted any more.
        var isClosed = false
        /// The multi handle was cleaned up: no wake-up may be sent.
        var multiIsGone = false
        /// The thread is between taking a batch and deciding to poll: it will look at the inbox
        /// again, so a command needs no wake-up. Cleared under the lock right before it polls.
        var isAwake = true

        /// Appends a command; true when the thread must be woken for it.
        mutating func append(_ command: Command) -> Bool {
            commands.append(command)
            return commands.count == 1 && !isAwake
        }
    }

    private struct Termination {
        var statistics = Statistics()
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    let multi: Curl.MultiPointer
    /// How the thread waits for its transfers' sockets and is woken (``CurlSocketEvents``).
    let socketEvents: CurlSocketEvents
    private let inbox = Locked(Inbox())
    /// Senders that decided under the inbox's lock to wake the thread and are calling
    /// the wake-up outside it; the thread waits for them before cleaning up the multi handle and
    /// closing what wakes it (see ``wake()``).
    private let wakeupsInFlight = Atomic<Int>(0)
    /// The loop's thread (`pthread_self()`), once it runs; 0 before. Checked by identity, since
    /// the thread's name can change (libdispatch renames threads it runs jobs on), and on every
    /// request (see ``isCurrentThread``), so an atomic rather than a lock.
    private let threadNumber = Atomic<UInt>(0)
    private let termination = Locked(Termination())

    // Curl thread only (CurlEventLoop+Transfers.swift works on these). Their accesses are
    // not checked for exclusivity at run time: one thread touches them, never two at once,
    // and the checks are a sizeable share of the thread's own (not libcurl's) work per request
    // (Benchmarks/README.md, "Instructions per request").
    @exclusivity(unchecked) var pool: CurlEasyHandlePool
    /// Transfers whose handle is in the multi handle: a transfer is here exactly from its
    /// `started` event to the action that releases its handle.
    @exclusivity(unchecked) var running: [TransferID: CurlTransfer] = [:]
    /// The running transfers whose body streams to a reader: only these can pause.
    @exclusivity(unchecked) var streaming: [TransferID: CurlTransfer] = [:]
    /// Connect-only attempts whose handle is in its own multi handle, which this loop drives:
    /// an attempt is here exactly from its `started` event to the action that hands its
    /// handle over or discards it.
    @exclusivity(unchecked) var connectAttempts: [ObjectIdentifier: CurlConnectAttempt] = [:]
    /// What ended attempts' tasks are to be told, after the statistics are published.
    @exclusivity(unchecked) var endedAttempts: [(CurlConnectAttempt, CurlConnectAttempt.State.Notice)] = []
    /// Which transfers run and which wait, per connection group.
    @exclusivity(unchecked) var admission = CurlAdmission<CurlTransfer>()
    @exclusivity(unchecked) var isShuttingDown = false
    @exclusivity(unchecked) var violations = 0
    /// ``Statistics/started``.
    @exclusivity(unchecked) var startedCount = 0
    @exclusivity(unchecked) private var batch: [Command] = []
    /// What ended transfers are to be told, told only after the statistics are published, so a
    /// caller that reads them after its request returns sees its own transfer gone.
    @exclusivity(unchecked) var endedTransfers: [(CurlTransfer, CurlTransfer.State.Notice)] = []
    /// The awaiting tasks of ``endedTransfers`` that are resumed off this thread (see
    /// ``resumeEndedTransfers()``); kept between turns for its capacity.
    @exclusivity(unchecked) var resumptions: [CurlTransfer.Resumption] = []
    /// Counts the turns libcurl was driven, so that a transfer ending can tell whether libcurl ran
    /// it at all (see ``recordMetrics(of:handle:finished:)``).
    @exclusivity(unchecked) var turn: UInt64 = 0
    /// When the running transfers are next checked for timeouts libcurl does not enforce.
    @exclusivity(unchecked) var nextOverdueCheck = ContinuousClock.now
    /// Since when nothing has run or waited while the pool held surplus handles; nil while busy.
    @exclusivity(unchecked) var quietSince: ContinuousClock.Instant?
    /// ``CurlTransport/Configuration-swift.struct/recordsMetrics``.
    let recordsMetrics: Bool
    /// ``CurlTransport/Configuration-swift.struct/clientCertificate``, named in the error libcurl
    /// reports when it cannot load it.
    let clientCertificate: CurlTransport.ClientCertificate?

    init(configuration: CurlTransport.Configuration, altSvcFile: CurlAltSvcFile? = nil) throws(CurlError) {
        // Enough idle handles for a full set of connections to a few hosts once the loop is
        // quiet; a burst's handles beyond that are kept only while it lasts (CurlEasyHandlePool).
        pool = CurlEasyHandlePool(
            configuration: configuration, maximumIdle: max(16, configuration.maximumConnectionsPerHost * 4), altSvcFile: altSvcFile
        )
        recordsMetrics = configuration.recordsMetrics
        clientCertificate = configuration.clientCertificate
        let multi = try Curl.multiInit()
        do {
            socketEvents = try CurlSocketEvents(multi: multi)
            try Curl.set(multi, .maxHostConnections, max(1, configuration.maximumConnectionsPerHost))
            // libcurl's default cache size is 4 × the easy handles currently added, so it shrinks
            // whenever the load dips, closes idle connections, and the next burst opens new ones
            // (Benchmarks/README.md, "Figures behind the curl engine's comments"); a fixed size keeps them.
            try Curl.set(multi, .maxConnects, Self.connectionCacheSize(configuration))
            try Self.applyMultiplexing(configuration, to: multi)
        } catch {
            Curl.multiCleanup(multi)
            throw error
        }
        self.multi = multi
        let thread = Thread { [self] in self.run() }
        thread.start()
    }

    /// Idle connections kept for reuse: a full set for a handful of hosts.
    static func connectionCacheSize(_ configuration: CurlTransport.Configuration) -> Int {
        max(1, configuration.maximumConnectionsPerHost) * 8
    }

    // MARK: - Any thread

    /// The awaiting task hands the transfer over with the continuation that waits for it: the
    /// transfer goes to the curl thread, or, cancelled first or with the loop shut down, the
    /// continuation is resumed at once with the error.
    func submit(_ transfer: CurlTransfer, resuming continuation: UnsafeContinuation<CurlTransferOutcome, any Error>) {
        switch transfer.withState({ $0.submit(continuation) }) {
        case .handToLoop:
            if !enqueue(.submit(transfer)) {
                transfer.deliverOffLoop(transfer.withState { $0.end(with: CurlError.transportShutDown) })
            }
        case .refuse(let continuation, let error):
            transfer.deliver(.failure(continuation, error))
        case .violation(let violation, let continuation, let error):
            transfer.deliverOffLoop(violation.ended)
            transfer.deliver(.failure(continuation, error))
        }
    }

    /// Asks the curl thread to stop the transfer, unless its lifecycle says it never reached
    /// the curl thread (it is then refused when submitted).
    func cancel(_ transfer: CurlTransfer, with error: any Error) {
        switch transfer.withState({ $0.cancelRequested(error) }) {
        case .none: break
        case .endOnLoop: _ = enqueue(.cancel(transfer))
        }
    }

    /// The awaiting task hands a connect-only attempt over, as ``submit(_:resuming:)`` does a
    /// transfer (see CurlEventLoop+ConnectAttempts.swift).
    func submit(_ attempt: CurlConnectAttempt, resuming continuation: CurlConnectAttempt.Continuation) {
        switch attempt.withState({ $0.submit(continuation) }) {
        case .handToLoop:
            if !enqueue(.connect(attempt)) {
                attempt.deliverOffLoop(attempt.withState { $0.end(with: CurlError.transportShutDown) })
            }
        case .refuse(let continuation, let error):
            attempt.deliver(.failure(continuation, error))
        case .violation(let violation, let continuation, let error):
            attempt.deliverOffLoop(violation.ended)
            attempt.deliver(.failure(continuation, error))
        }
    }

    /// Asks the curl thread to end the attempt, unless it never reached the curl thread (it is
    /// then refused when submitted).
    func cancel(_ attempt: CurlConnectAttempt, with error: any Error) {
        switch attempt.withState({ $0.cancelRequested(error) }) {
        case .none: break
        case .endOnLoop: _ = enqueue(.cancelConnect(attempt, error))
        }
    }

    /// The reader of the transfer's streamed body caught up: receiving goes on.
    func resumeReceiving(_ transfer: CurlTransfer) {
        _ = enqueue(.resumeReceiving(transfer))
    }

    /// The producer of the transfer's streamed upload buffered more: sending goes on.
    func resumeSending(_ transfer: CurlTransfer) {
        _ = enqueue(.resumeSending(transfer))
    }

    /// Fails every running transfer with ``CurlError/transportShutDown`` and ends the thread.
    /// Returns at once; see ``awaitTermination()``.
    func shutDown() {
        let mustWake = inbox.withLock { inbox in
            guard !inbox.isClosed else { return false }
            let mustWake = acceptWakingIfNeeded(inbox.append(.shutDown))
            inbox.isClosed = true
            return mustWake
        }
        if mustWake { wake() }
    }

    /// Returns once the thread has released every handle and the multi handle.
    func awaitTermination() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = termination.withLock { state -> Bool in
                if state.statistics.isTerminated { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    var statistics: Statistics { termination.withLock { $0.statistics } }

    /// Whether the caller runs on this loop's thread: a task that prefers this loop's executor,
    /// or the loop itself.
    var isCurrentThread: Bool {
        threadNumber.load(ordering: .relaxed) == Self.currentThreadNumber()
    }

    private static func currentThreadNumber() -> UInt {
        #if os(Linux)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// Runs `job` on the curl thread at its next turn. Once the loop is shut down, jobs go to
    /// the global concurrent executor instead, so no task that prefers this one is stranded.
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        if !enqueue(.run(unowned)) {
            globalConcurrentExecutor.enqueue(ExecutorJob(unowned))
        }
    }

    private func enqueue(_ command: Command) -> Bool {
        let (accepted, mustWake) = inbox.withLock { inbox -> (Bool, Bool) in
            guard !inbox.isClosed else { return (false, false) }
            return (true, acceptWakingIfNeeded(inbox.append(command)))
        }
        if mustWake { wake() }
        return accepted
    }

    /// Under the inbox's lock, once a command was appended: when the thread must be woken,
    /// counts the wake-up as in flight, so the thread cannot clean up the multi handle before
    /// it was sent.
    private func acceptWakingIfNeeded(_ mustWake: Bool) -> Bool {
        if mustWake { _ = wakeupsInFlight.add(1, ordering: .relaxed) }
        return mustWake
    }

    /// Sent after the inbox's lock is released: the woken thread takes that lock at once, so a
    /// sender still holding it would put the thread to sleep again right after its wake-up, a
    /// second sleep and wake-up for one command.
    private func wake() {
        socketEvents.wake()
        _ = wakeupsInFlight.subtract(1, ordering: .releasing)
    }

    // MARK: - Curl thread

    /// Batches of commands taken between two turns of libcurl.
    private static let commandRoundsPerIteration = 8

    private func run() {
        // Named here: Foundation only hands a name to the OS (ps, perf, gdb) from the thread itself.
        Thread.current.name = "CourierCurl"
        threadNumber.store(Self.currentThreadNumber(), ordering: .relaxed)
        var failure: CurlError?
        loop: while true {
            // Jobs run here enqueue more work (their task's next request, a parent task's
            // resumption): take it before driving libcurl, for a few rounds at most so running
            // transfers are never starved by a task that keeps enqueueing.
            for _ in 0..<Self.commandRoundsPerIteration {
                let hasCommands = inbox.withLock { inbox in
                    swap(&inbox.commands, &batch)
                    inbox.isAwake = true
                    return !batch.isEmpty
                }
                guard hasCommands else { break }
                for command in batch where apply(command) {
                    batch.removeAll(keepingCapacity: true)
                    break loop
                }
                batch.removeAll(keepingCapacity: true)
            }
            do {
                try socketEvents.drive()
                turn &+= 1
                for transfer in streaming.values { transfer.flushStreamedBody(atTurnEnd: true) }
                while let (easy, code) = Curl.nextFinished(multi) {
                    finish(easy: easy, code: code)
                }
                finishConnectAttempts()
                endOverdueTransfers()
                startWaitingTransfers()
                letSurplusHandlesGoWhenQuiet()
                publishStatistics()
                resumeEndedTransfers()
                resumeEndedAttempts()
                // The wait ends at libcurl's own next timeout. While transfers are in
                // flight the cap is short: libcurl 7.88 can leave a transfer queued behind the
                // per-host connection limit without a timer, and it waits out the whole cap
                // (Benchmarks/README.md, "Figures behind the curl engine's comments").
                // An idle transport still sleeps for long stretches.
                let cap: Int32 = running.isEmpty && connectAttempts.isEmpty ? Self.quietWaitMilliseconds : 250
                // Commands that came in while the thread was busy (a job resumed above that
                // submitted its next request, say) are taken at once, without a wake-up.
                let mayPoll = inbox.withLock { inbox in
                    guard inbox.commands.isEmpty else { return false }
                    inbox.isAwake = false
                    return true
                }
                if mayPoll {
                    try socketEvents.wait(capMilliseconds: cap)
                }
            } catch {
                failure = error
                break loop
            }
        }
        tearDown(failingWith: failure ?? CurlError.transportShutDown)
        // The thread ends here, and a later thread may be given its `pthread_t`: it must not
        // pass for this loop's.
        threadNumber.store(0, ordering: .relaxed)
    }

    /// Returns true when the loop must end.
    private func apply(_ command: Command) -> Bool {
        switch command {
        case .submit(let transfer):
            if isShuttingDown {
                perform(transfer.withState { $0.end(with: CurlError.transportShutDown) }, for: transfer)
            } else if transfer.withState({ $0.shouldStart() }) {
                admitOrQueue(transfer)
            }
        case .cancel(let transfer):
            perform(transfer.withState { $0.end(with: URLError(.cancelled, "the request was cancelled", url: transfer.plan.url)) }, for: transfer)
        case .resumeReceiving(let transfer):
            perform(transfer.withState { $0.readerDrained() }, for: transfer)
        case .resumeSending(let transfer):
            perform(transfer.withState { $0.uploadReadable() }, for: transfer)
        case .connect(let attempt):
            if isShuttingDown {
                perform(attempt.withState { $0.end(with: CurlError.transportShutDown) }, for: attempt)
            } else if attempt.withState({ $0.shouldStart() }) {
                start(attempt)
            }
        case .cancelConnect(let attempt, let error):
            perform(attempt.withState { $0.end(with: error) }, for: attempt)
        case .run(let job):
            job.runSynchronously(on: asUnownedTaskExecutor())
        case .shutDown:
            return true
        }
        return false
    }

    private func tearDown(failingWith error: CurlError) {
        isShuttingDown = true
        for transfer in Array(running.values) {
            perform(transfer.withState { $0.end(with: error) }, for: transfer)
        }
        for transfer in admission.waitingTransfers {
            perform(transfer.withState { $0.end(with: error) }, for: transfer)
        }
        admission.removeAllWaiting()
        // Before the multi handle and the epoll set go: discarding a handle stops its own
        // multi handle being driven from that set.
        for attempt in Array(connectAttempts.values) {
            perform(attempt.withState { $0.end(with: error) }, for: attempt)
        }
        resumeEndedTransfers()
        resumeEndedAttempts()
        pool.removeAll()
        let leftovers = inbox.withLock { inbox -> [Command] in
            inbox.isClosed = true
            inbox.multiIsGone = true
            defer { inbox.commands = [] }
            return inbox.commands
        }
        // Wake-ups decided before the inbox closed may still be on their way into the multi handle.
        while wakeupsInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        Curl.multiCleanup(multi)
        socketEvents.close()
        for command in leftovers {
            switch command {
            case .submit(let transfer):
                transfer.deliverOffLoop(transfer.withState { $0.end(with: error) })
            case .connect(let attempt):
                attempt.deliverOffLoop(attempt.withState { $0.end(with: error) })
            case .run(let job):
                // Jobs enqueued before the inbox closed still run here, once: what they
                // enqueue from now on goes to the global executor.
                job.runSynchronously(on: asUnownedTaskExecutor())
            case .cancel, .cancelConnect, .resumeReceiving, .resumeSending, .shutDown:
                break
            }
        }
        let waiters = termination.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.statistics = Statistics(violations: violations, started: startedCount, isTerminated: true)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func publishStatistics() {
        let current = Statistics(
            running: running.count,
            waiting: admission.waitingCount,
            pausedByBackPressure: streaming.isEmpty ? 0 : streaming.values.count { $0.phase == .pausedByBackPressure },
            liveHandles: pool.live,
            idleHandles: pool.idleCount, violations: violations, started: startedCount, isTerminated: false,
            connecting: connectAttempts.count
        )
        termination.withLock { $0.statistics = current }
    }
}
