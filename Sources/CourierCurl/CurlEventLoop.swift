#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Courier
import Synchronization

/// One thread that owns one multi handle and is the only caller of `curl_multi_*` and of
/// anything on an easy handle.
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
    /// Counts published after every loop iteration, for tests and diagnostics.
    struct Statistics: Equatable, Sendable {
        /// Transfers whose handle is in the multi handle.
        var running = 0
        /// Transfers waiting for a transfer to their host to end (see
        /// ``CurlEventLoop/admissionLimit(_:scheme:)``); ones cancelled while waiting count until dropped.
        var waiting = 0
        /// Running transfers whose receiving is paused until their reader catches up.
        var pausedByBackPressure = 0
        var liveHandles = 0
        var idleHandles = 0
        /// Events a transfer's lifecycle refused as impossible (release builds; debug builds
        /// trap). Always 0 unless the engine has a bug.
        var violations = 0
        var isTerminated = false
    }

    private enum Command {
        case submit(CurlTransfer)
        case cancel(CurlTransfer)
        /// The reader of a streamed body caught up.
        case resumeReceiving(CurlTransfer)
        /// The producer of a streamed upload buffered more.
        case resumeSending(CurlTransfer)
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

    private let multi: Curl.MultiPointer
    /// How the thread waits for its transfers' sockets and is woken (``CurlSocketEvents``).
    private let socketEvents: CurlSocketEvents
    private let inbox = Locked(Inbox())
    /// Senders that decided under the inbox's lock to wake the thread and are calling
    /// the wake-up outside it; the thread waits for them before cleaning up the multi handle and
    /// closing what wakes it (see ``wake()``).
    private let wakeupsInFlight = Atomic<Int>(0)
    /// The loop's `Thread`, once it runs: tests check where a job ran by identity, since the
    /// thread's name can change (libdispatch renames threads it runs jobs on).
    private let loopThread = Locked<ObjectIdentifier?>(nil)
    private let termination = Locked(Termination())

    // Curl thread only.
    private var pool: CurlEasyHandlePool
    /// Transfers whose handle is in the multi handle: a transfer is here exactly from its
    /// `started` event to the action that releases its handle.
    private var running: [TransferID: CurlTransfer] = [:]
    /// The running transfers whose body streams to a reader: only these can pause.
    private var streaming: [TransferID: CurlTransfer] = [:]
    /// Running transfers per ``CurlTransfer/connectionGroup``, and those waiting for one of
    /// them to end, in submission order (see ``admissionLimit(_:scheme:)``).
    private var runningPerGroup: [String: Int] = [:]
    private var waiting: [String: CurlTransferQueue] = [:]
    /// Groups in which a transfer ended while others waited.
    private var groupsWithRoom: [String] = []
    private var isShuttingDown = false
    private var violations = 0
    private var batch: [Command] = []
    /// Transfers ended in this iteration, resumed only after the statistics are published, so a
    /// caller that reads them after its request returns sees its own transfer gone.
    private var endedTransfers: [(CurlTransfer, CurlTransfer.State.Action)] = []
    /// Counts the turns libcurl was driven, so that a transfer ending can tell whether libcurl ran
    /// it at all (see ``recordMetrics(of:handle:finished:)``).
    private var turn: UInt64 = 0
    /// When the running transfers are next checked for timeouts libcurl does not enforce.
    private var nextOverdueCheck = ContinuousClock.now
    /// ``CurlTransport/Configuration-swift.struct/recordsMetrics``.
    private let recordsMetrics: Bool

    init(configuration: CurlTransport.Configuration) throws(CurlError) {
        // Enough idle handles for a full set of connections to a few hosts; beyond that,
        // handles are destroyed when their transfer ends rather than hoarded.
        pool = CurlEasyHandlePool(configuration: configuration, maximumIdle: max(16, configuration.maximumConnectionsPerHost * 4))
        recordsMetrics = configuration.recordsMetrics
        let multi = try Curl.multiInit()
        do {
            socketEvents = try CurlSocketEvents(multi: multi)
            try Curl.set(multi, .maxHostConnections, max(1, configuration.maximumConnectionsPerHost))
            // libcurl's default cache size is 4 × the easy handles currently added, so it shrinks
            // whenever the load dips, closes idle connections, and the next burst opens new ones:
            // 2,000 requests saw 7 connections with a limit of 6. A fixed size keeps them.
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

    /// How many transfers of one connection group libcurl is given at once: as many as it can
    /// run, one per connection, or for requests that may share an HTTP/2 connection, the
    /// connections times the streams each may carry. The rest wait here rather than in libcurl,
    /// which would make each one an easy handle with its buffers and look at all of them on
    /// every turn: 2,000 requests at once on 64 HTTP/1.1 connections took 51 rather than 76 us
    /// of CPU each, and ran 52% faster (Benchmarks/README.md).
    static func admissionLimit(_ configuration: CurlTransport.Configuration, scheme: String?) -> Int {
        let connections = max(1, configuration.maximumConnectionsPerHost)
        guard configuration.httpVersion.multiplexes(scheme: scheme) else { return connections }
        let streams = max(1, configuration.maximumConcurrentStreamsPerConnection)
        let (limit, overflow) = connections.multipliedReportingOverflow(by: streams)
        return overflow ? Int.max : limit
    }

    /// Idle connections kept for reuse: a full set for a handful of hosts.
    static func connectionCacheSize(_ configuration: CurlTransport.Configuration) -> Int {
        max(1, configuration.maximumConnectionsPerHost) * 8
    }

    // MARK: - Any thread

    /// Hands a submitted transfer (see ``CurlTransferState/submit(_:)``) to the curl thread, or
    /// fails it at once when the loop is shut down.
    func submit(_ transfer: CurlTransfer) {
        if !enqueue(.submit(transfer)) {
            transfer.resume(transfer.withState { $0.end(with: CurlError.transportShutDown) })
        }
    }

    /// Asks the curl thread to stop the transfer, unless its lifecycle says it never reached
    /// the curl thread (it is then refused when submitted).
    func cancel(_ transfer: CurlTransfer, with error: any Error) {
        guard transfer.withState({ $0.cancelRequested(error) }) else { return }
        _ = enqueue(.cancel(transfer))
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

    /// Whether the caller runs on this loop's thread, for tests.
    var isCurrentThread: Bool {
        let current = ObjectIdentifier(Thread.current)
        return loopThread.withLock { $0 == current }
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

    /// Sent after the inbox's lock is released: the woken thread takes that lock at once, and
    /// when the sender held it through the wake-up, perf caught the thread asleep on it
    /// right after its wake-up, a second sleep and wake-up for one command.
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
        loopThread.withLock { $0 = ObjectIdentifier(Thread.current) }
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
                endOverdueTransfers()
                admitWaiting()
                publishStatistics()
                resumeEndedTransfers()
                // The wait ends at libcurl's own next timeout. While transfers are in
                // flight the cap is short: twice in benchmarks a burst queued behind the
                // per-host connection limit sat idle for exactly the old 10 s cap (0.2 s of
                // CPU in 10 s), which points at a pending transfer libcurl 7.88 did not
                // schedule a timer for. An idle transport still sleeps for long stretches.
                let cap: Int32 = running.isEmpty ? 10_000 : 250
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
        case .run(let job):
            job.runSynchronously(on: asUnownedTaskExecutor())
        case .shutDown:
            return true
        }
        return false
    }

    /// Starts the transfer when its group has room and nobody waits before it; queues it otherwise.
    private func admitOrQueue(_ transfer: CurlTransfer) {
        let group = transfer.connectionGroup
        if waiting[group] == nil, runningPerGroup[group, default: 0] < transfer.admissionLimit {
            start(transfer)
        } else {
            waiting[group, default: CurlTransferQueue()].append(transfer)
        }
    }

    /// Starts waiting transfers in the groups where some ended, up to the limit. One that was
    /// cancelled or timed out while it waited has ended already and is dropped.
    private func admitWaiting() {
        guard !groupsWithRoom.isEmpty else { return }
        let groups = groupsWithRoom
        groupsWithRoom.removeAll(keepingCapacity: true)
        for group in groups {
            // Taken out while it is worked on, so it is not copied on every change.
            guard var queue = waiting.removeValue(forKey: group) else { continue }
            // A group's transfers share a scheme and the transport's settings, and so a limit.
            while let next = queue.first, runningPerGroup[group, default: 0] < next.admissionLimit {
                _ = queue.popFirst()
                if next.withState({ $0.shouldStart() }) { start(next) }
            }
            if !queue.isEmpty { waiting[group] = queue }
        }
    }

    private func start(_ transfer: CurlTransfer) {
        var handle: CurlEasyHandle?
        do {
            let taken = try pool.take()
            handle = taken
            transfer.recordsMetrics = recordsMetrics
            try taken.prepare(for: transfer)
            transfer.uploadReader?.start()
            try Curl.add(taken.pointer, to: multi)
            socketEvents.runTimersNext()
            transfer.startTurn = turn
            running[transfer.id] = transfer
            runningPerGroup[transfer.connectionGroup, default: 0] += 1
            if transfer.bodyStorage != nil { streaming[transfer.id] = transfer }
            perform(transfer.withState { $0.started(taken) }, for: transfer)
        } catch {
            transfer.easy = nil
            perform(transfer.withState { $0.startFailed(error, handle: handle) }, for: transfer)
        }
    }

    private func finish(easy: Curl.EasyPointer, code: Int) {
        guard let context = Curl.privateData(easy) else { return }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        transfer.flushStreamedBody()
        if let handle = transfer.withState({ $0.handle }) { recordMetrics(of: transfer, handle: handle, finished: true) }
        let failure = failure(of: transfer, code: code, easy: easy)
        perform(transfer.withState { $0.completed(failure) }, for: transfer)
    }

    /// Why libcurl ended the transfer, or nil when it completed.
    private func failure(of transfer: CurlTransfer, code: Int, easy: Curl.EasyPointer) -> (any Error)? {
        guard code != Curl.Code.ok else { return nil }
        let url = transfer.plan.url
        if let limit = transfer.exceededLimit {
            return limit.urlError(code: .dataLengthExceedsMaximum, url: url)
        }
        if let failure = transfer.bodyStreamFailure {
            // URLError has no code for it (FoundationNetworking sends such a body as empty and
            // reports success); the CurlError underneath says what failed.
            return failure.urlError(code: .unknown, url: url)
        }
        if let timeout = transfer.timedOut {
            return timeout.urlError(code: .timedOut, url: url)
        }
        let libcurlSaid = transfer.withState { $0.handle }?.errorMessage ?? Curl.message(forCode: code)
        let proxy = transfer.plan.proxy
        if proxy.isEnabled, transfer.plan.unixSocketPath == nil {
            let outcome = CurlError.ProxyOutcome(
                code: code, libcurlSaid: libcurlSaid,
                connectStatus: Curl.proxyConnectStatus(easy), proxyError: Curl.proxyError(easy)
            )
            if let (urlCode, error) = CurlError.proxyFailure(outcome, proxy: proxy) {
                return error.urlError(code: urlCode, url: url)
            }
        }
        var message = proxy.redacting(
            CurlError.message(forCode: code, libcurlSaid: libcurlSaid, duringBody: transfer.headIsHandedOver)
        )
        var urlCode = CurlError.urlErrorCode(curlCode: code, osErrno: Curl.osErrno(easy))
        if let tls = CurlError.tlsFailure(curlCode: code, libcurlSaid: libcurlSaid) {
            (urlCode, message) = (tls.code, proxy.redacting(tls.message))
        }
        let error = CurlError(kind: .transfer, curlCode: code, message: message)
        return error.urlError(code: urlCode, url: url)
    }

    /// Ends, with `.timedOut`, the transfers past a timeout libcurl is not enforcing for them.
    /// At most ten checks a second: a timeout fires within the poll cap (250 ms) plus this.
    private func endOverdueTransfers() {
        guard !running.isEmpty || !waiting.isEmpty else { return }
        let now = ContinuousClock.now
        guard now >= nextOverdueCheck else { return }
        nextOverdueCheck = now + .milliseconds(100)
        var overdue: [(CurlTransfer, URLError)] = []
        for transfer in running.values {
            if let error = transfer.overdueError(at: now) {
                overdue.append((transfer, error.urlError(code: .timedOut, url: transfer.plan.url)))
            }
        }
        // Waiting counts as silence, as it does for URLSession; the clock ran from submission.
        for queue in waiting.values {
            for transfer in queue.transfers where transfer.phase == .queued {
                if let error = transfer.overdueError(at: now) {
                    overdue.append((transfer, error.urlError(code: .timedOut, url: transfer.plan.url)))
                }
            }
        }
        for (transfer, error) in overdue {
            perform(transfer.withState { $0.end(with: error) }, for: transfer)
        }
    }

    /// Performs what the transfer's lifecycle decided: the handle is removed from the multi
    /// handle and given back first (libcurl's order, and never from inside a callback), then
    /// the caller is resumed once the statistics are published.
    private func perform(_ action: CurlTransfer.State.Action, for transfer: CurlTransfer) {
        // One at a time rather than through an array of both: this runs twice per request.
        if let release = action.release { self.release(release, of: transfer) }
        if let release = action.violationRelease { self.release(release, of: transfer) }
        if let repause = action.repause {
            transfer.restartIdleClock()
            Curl.pause(repause.handle.pointer, receive: repause.receive, send: repause.send)
            socketEvents.runTimersNext()
        }
        if let violation = action.violation {
            violations += 1
            FileHandle.standardError.write(Data("CourierCurl: \(violation); the transfer was ended\n".utf8))
        }
        if action.resume != nil || action.violationResume != nil || action.body != nil {
            endedTransfers.append((transfer, action))
        }
    }

    /// Takes the transfer's handle out of the multi handle, once its metrics are read, and
    /// gives it back to the pool; the transfer no longer runs.
    private func release(_ release: (handle: CurlEasyHandle, inMulti: Bool), of transfer: CurlTransfer) {
        if release.inMulti {
            recordMetrics(of: transfer, handle: release.handle)
            Curl.remove(release.handle.pointer, from: multi)
        }
        pool.give(release.handle, keep: !isShuttingDown)
        if running.removeValue(forKey: transfer.id) != nil {
            let group = transfer.connectionGroup
            let left = runningPerGroup[group, default: 1] - 1
            runningPerGroup[group] = left > 0 ? left : nil
            if waiting[group] != nil { groupsWithRoom.append(group) }
        }
        streaming[transfer.id] = nil
        transfer.easy = nil
        transfer.uploadReader?.cancel()
    }

    /// Reads what libcurl measured of the transfer, whichever way it ended (completed, failed,
    /// cancelled, timed out), once. Only if libcurl ran it: libcurl resets a
    /// handle's measurements when it starts a transfer, so before that they are the previous
    /// transfer's.
    ///
    /// `finished`: libcurl reported the transfer done (``finish(easy:code:)`` reads the metrics
    /// first); anywhere else the transfer was stopped before its end.
    private func recordMetrics(of transfer: CurlTransfer, handle: CurlEasyHandle, finished: Bool = false) {
        guard transfer.metrics == nil, let started = transfer.startTurn, turn != started else { return }
        transfer.recordMetrics(recordsMetrics ? Curl.transferInfo(handle.pointer) : nil, finished: finished)
    }

    private func resumeEndedTransfers() {
        for (transfer, action) in endedTransfers {
            transfer.resume(action)
        }
        endedTransfers.removeAll(keepingCapacity: true)
    }

    private func tearDown(failingWith error: CurlError) {
        isShuttingDown = true
        for transfer in Array(running.values) {
            perform(transfer.withState { $0.end(with: error) }, for: transfer)
        }
        for queue in waiting.values {
            for transfer in queue.transfers {
                perform(transfer.withState { $0.end(with: error) }, for: transfer)
            }
        }
        waiting.removeAll()
        resumeEndedTransfers()
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
                transfer.resume(transfer.withState { $0.end(with: error) })
            case .run(let job):
                // Jobs enqueued before the inbox closed still run here, once: what they
                // enqueue from now on goes to the global executor.
                job.runSynchronously(on: asUnownedTaskExecutor())
            case .cancel, .resumeReceiving, .resumeSending, .shutDown:
                break
            }
        }
        let waiters = termination.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.statistics = Statistics(violations: violations, isTerminated: true)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func publishStatistics() {
        let current = Statistics(
            running: running.count,
            waiting: waiting.isEmpty ? 0 : waiting.values.reduce(0) { $0 + $1.count },
            pausedByBackPressure: streaming.isEmpty ? 0 : streaming.values.count { $0.phase == .pausedByBackPressure },
            liveHandles: pool.live,
            idleHandles: pool.idleCount, violations: violations, isTerminated: false
        )
        termination.withLock { $0.statistics = current }
    }
}
