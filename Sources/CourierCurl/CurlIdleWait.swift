/// Whether the curl thread, having just resumed the tasks whose transfers ended and with no
/// transfer left running, watches its inbox for a short while before it sleeps waiting
/// for its sockets.
///
/// A task that sends requests one after another submits its next one a few microseconds after
/// it is resumed. If the curl thread is asleep by then, that submission costs a
/// wake-up (a write to an eventfd) and the thread's return from its wait, tens of
/// microseconds on a loaded machine; if the thread is still awake, the command is simply taken.
/// The watch is bounded by ``window`` and starts only right after resuming with nothing running,
/// so an idle transport still sleeps and costs no CPU, and a transport with transfers in flight
/// polls their sockets as before. When tasks keep not coming back within the window (one-off
/// requests, a caller that works between requests), watching stops paying: after each miss in a
/// row, twice as many resumptions go by without a watch, up to ``maximumSkips``; one hit starts
/// over.
struct CurlIdleWait: Sendable {
    /// What the curl thread does once it has resumed the tasks of this turn.
    enum Decision: Equatable, Sendable {
        /// Sleep until a socket or libcurl's timer needs the thread, as usual.
        case sleep
        /// Look at the inbox until a command comes or the deadline passes, then sleep if none did.
        case watchInbox(until: ContinuousClock.Instant)
    }

    /// How long a watch lasts at most.
    let window: Duration
    /// The most resumptions skipped after a run of misses.
    let maximumSkips: Int
    /// Misses in a row since the last hit.
    private(set) var misses = 0
    /// Resumptions still to go by without a watch.
    private(set) var skipsLeft = 0

    /// The default window covers a dispatch worker's wake-up and a request's work on it on a
    /// loaded two-core machine; a miss wastes at most that much CPU.
    init(window: Duration = .microseconds(50), maximumSkips: Int = 64) {
        self.window = window
        self.maximumSkips = max(0, maximumSkips)
    }

    /// Decides after a turn of the loop: `resumed` tasks were resumed in it, and `transfersLeft`
    /// is nonzero while any transfer is still in the multi handle or waiting for a connection.
    mutating func afterTurn(resumed: Int, transfersLeft: Int, now: ContinuousClock.Instant) -> Decision {
        guard resumed > 0, transfersLeft == 0, window > .zero else { return .sleep }
        guard skipsLeft == 0 else {
            skipsLeft -= 1
            return .sleep
        }
        return .watchInbox(until: now + window)
    }

    /// Records how a watch ended: whether a command came before its deadline.
    mutating func watchEnded(foundCommand: Bool) {
        if foundCommand {
            misses = 0
            return
        }
        misses += 1
        // 1, 2, 4, ... resumptions skipped, without overflowing however long the misses go on.
        let shift = min(misses - 1, Int.bitWidth - 2)
        skipsLeft = min(1 << shift, maximumSkips)
    }
}
