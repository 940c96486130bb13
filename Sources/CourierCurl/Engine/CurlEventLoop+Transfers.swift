#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Dispatch
import Foundation
import Courier

// The curl thread's work on transfers: admitting and starting them, finishing them when libcurl
// reports them done, ending overdue ones, and performing what their lifecycle decides.
extension CurlEventLoop {
    typealias State = CurlTransfer.State

    /// Starts the transfer when its group has room and nobody waits before it; queues it otherwise.
    func admitOrQueue(_ transfer: CurlTransfer) {
        switch admission.request(transfer, group: transfer.connectionGroup, limit: transfer.admissionLimit) {
        case .start: start(transfer)
        case .queued: break
        }
    }

    /// Starts waiting transfers in the groups where some ended, up to the limit. One that was
    /// cancelled or timed out while it waited has ended already and is dropped.
    func startWaitingTransfers() {
        while let next = admission.nextToStart() {
            if next.withState({ $0.shouldStart() }) { start(next) }
        }
    }

    private func start(_ transfer: CurlTransfer) {
        var handle: CurlEasyHandle?
        do {
            let taken = try pool.take()
            handle = taken
            transfer.measurements.recordsMetrics = recordsMetrics
            try taken.prepare(for: transfer)
            transfer.uploadReader?.start()
            try Curl.add(taken.pointer, to: multi)
            socketEvents.runTimersNext()
            transfer.measurements.startTurn = turn
            running[transfer.id] = transfer
            startedCount += 1
            admission.started(in: transfer.connectionGroup)
            if transfer.bodyStorage != nil { streaming[transfer.id] = transfer }
            perform(transfer.withState { $0.started(taken) }, for: transfer)
        } catch {
            transfer.easy = nil
            perform(transfer.withState { $0.startFailed(error, handle: handle) }, for: transfer)
        }
    }

    func finish(easy: Curl.EasyPointer, code: Int) {
        guard let context = Curl.privateData(easy) else { return }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        transfer.flushStreamedBody()
        let handle = transfer.withState { $0.handle }
        if let handle { recordMetrics(of: transfer, handle: handle, finished: true) }
        var failure: (any Error)?
        if code != Curl.Code.ok {
            let report = CurlError.ProxyOutcome(
                code: code, libcurlSaid: handle?.errorMessage ?? Curl.message(forCode: code),
                connectStatus: Curl.proxyConnectStatus(easy), proxyError: Curl.proxyError(easy)
            )
            failure = CurlError.clientCertificateFailure(report, identity: clientCertificate) ?? CurlError.transferFailure(
                report, osErrno: Curl.osErrno(easy), stoppedFor: transfer.stopReason, plan: transfer.plan,
                duringBody: transfer.head.isHandedOver
            )
        }
        perform(transfer.withState { $0.completed(failure) }, for: transfer)
    }

    /// Ends, with `.timedOut`, the transfers past a timeout libcurl is not enforcing for them.
    /// At most ten checks a second: a timeout fires within the poll cap (250 ms) plus this.
    func endOverdueTransfers() {
        guard !running.isEmpty || admission.hasWaiting else { return }
        let now = ContinuousClock.now
        guard now >= nextOverdueCheck else { return }
        nextOverdueCheck = now + .milliseconds(100)
        var overdue: [(CurlTransfer, URLError)] = []
        for transfer in running.values {
            if let error = transfer.overdueError(at: now) {
                overdue.append((transfer, CurlStopReason.idleTimeout(error).urlError(url: transfer.plan.url)))
            }
        }
        // Waiting counts as silence, as it does for URLSession; the clock ran from submission.
        for transfer in admission.waitingTransfers where transfer.phase == .queued {
            if let error = transfer.overdueError(at: now) {
                overdue.append((transfer, CurlStopReason.idleTimeout(error).urlError(url: transfer.plan.url)))
            }
        }
        for (transfer, error) in overdue {
            perform(transfer.withState { $0.end(with: error) }, for: transfer)
        }
    }

    // MARK: Performing what the lifecycle decided

    // The handle is removed from the multi handle and given back first (libcurl's order, and
    // never from inside a callback); the awaiting task or the body's reader is told once the
    // statistics are published.

    func perform(_ action: State.EndAction, for transfer: CurlTransfer) {
        switch action {
        case .none:
            break
        case .notify(let notice):
            endedTransfers.append((transfer, notice))
        case .remove(let handle, let notice):
            release(handle, inMulti: true, of: transfer)
            endedTransfers.append((transfer, notice))
        }
    }

    func perform(_ action: State.CompleteAction, for transfer: CurlTransfer) {
        switch action {
        case .remove(let handle, let notice):
            release(handle, inMulti: true, of: transfer)
            endedTransfers.append((transfer, notice))
        case .violation(let violation):
            perform(violation, for: transfer)
        }
    }

    private func perform(_ action: State.StartAction, for transfer: CurlTransfer) {
        switch action {
        case .none:
            break
        case .violation(let violation, let handle):
            perform(violation, for: transfer)
            release(handle, inMulti: true, of: transfer)
        }
    }

    private func perform(_ action: State.StartFailureAction, for transfer: CurlTransfer) {
        switch action {
        case .fail(let continuation, let error, let handle):
            if let handle { release(handle, inMulti: false, of: transfer) }
            endedTransfers.append((transfer, .failure(continuation, error)))
        case .violation(let violation, let handle):
            perform(violation, for: transfer)
            if let handle { release(handle, inMulti: false, of: transfer) }
        }
    }

    func perform(_ action: State.UnpauseAction, for transfer: CurlTransfer) {
        switch action {
        case .none:
            break
        case .repause(let handle, let receive, let send):
            transfer.restartIdleClock()
            Curl.pause(handle.pointer, receive: receive, send: send)
            socketEvents.runTimersNext()
        }
    }

    /// Ends the transfer so nothing is left behind and says what happened; the caller then
    /// gives back what the refused event brought.
    private func perform(_ violation: State.Violation, for transfer: CurlTransfer) {
        perform(violation.ended, for: transfer)
        violations += 1
        FileHandle.standardError.write(Data("CourierCurl: \(violation.message); the transfer was ended\n".utf8))
    }

    /// Takes the transfer's handle out of the multi handle (`inMulti`), once its metrics are
    /// read, and gives it back to the pool; the transfer no longer runs.
    private func release(_ handle: CurlEasyHandle, inMulti: Bool, of transfer: CurlTransfer) {
        if inMulti {
            recordMetrics(of: transfer, handle: handle)
            Curl.remove(handle.pointer, from: multi)
        }
        handle.noteAltSvcAnswer(transfer.head.altSvc, from: transfer.plan.url)
        if handle.holdsNewAltSvc {
            // Let go on this thread, in this turn: its curl_easy_cleanup writes the Alt-Svc
            // file before the awaiting task can start its next request, which then reads it.
            handle.detach()
            pool.give(handle, keep: false)
        } else {
            // A handle the pool does not keep is let go with its transfer, which the awaiting
            // task usually holds last: curl_easy_cleanup then runs on that task's thread, not here.
            transfer.retiredHandle = pool.give(handle, keep: !isShuttingDown)
        }
        if running.removeValue(forKey: transfer.id) != nil {
            admission.ended(in: transfer.connectionGroup)
        }
        // Hashed only when some transfer streams: most never do.
        if !streaming.isEmpty { streaming[transfer.id] = nil }
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
        guard transfer.measurements.end == nil, let started = transfer.measurements.startTurn, turn != started else { return }
        transfer.recordMetrics(recordsMetrics ? Curl.transferInfo(handle.pointer) : nil, finished: finished)
    }

    /// Tells the turn's ended transfers, and resumes their awaiting tasks.
    ///
    /// Two or more tasks that await on the global executor are resumed from one job there
    /// rather than from this thread: each resumption from here hands a job to a worker thread,
    /// which, when both share a core, preempts the loop at once, runs that one task (whose next
    /// request waits for the loop) and sleeps again, a pair of context switches per request. From
    /// one job, the tasks run one after another and the loop takes their requests together
    /// (Benchmarks/README.md, "Resuming a turn's tasks together"). A task that prefers this
    /// loop's executor is resumed here, where its job stays on this thread.
    func resumeEndedTransfers() {
        for (transfer, notice) in endedTransfers {
            guard let resumption = transfer.resumption(for: notice) else { continue }
            if transfer.awaitsOnLoop {
                resumption.resume()
            } else {
                resumptions.append(resumption)
            }
        }
        endedTransfers.removeAll(keepingCapacity: true)
        if resumptions.count > 1 {
            DispatchQueue.global().async { [resumptions] in
                for resumption in resumptions { resumption.resume() }
            }
        } else {
            resumptions.first?.resume()
        }
        resumptions.removeAll(keepingCapacity: true)
    }
}
