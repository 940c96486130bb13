// What the curl thread publishes after every turn, for tests and diagnostics.
extension CurlEventLoop {
    /// Counts published after every loop iteration, for tests and diagnostics.
    struct Statistics: Equatable, Sendable {
        /// Transfers whose handle is in the multi handle.
        var running = 0
        /// Transfers waiting for a transfer to their host to end (see ``CurlAdmission``); ones
        /// cancelled while waiting count until dropped.
        var waiting = 0
        /// Running transfers whose receiving is paused until their reader catches up.
        var pausedByBackPressure = 0
        var liveHandles = 0
        var idleHandles = 0
        /// Events a transfer's lifecycle refused as impossible (release builds; debug builds
        /// trap). Always 0 unless the engine has a bug.
        var violations = 0
        /// Transfers given to libcurl since the loop began, for tests that check where
        /// requests ran.
        var started = 0
        var isTerminated = false
        /// Connect-only attempts (a WebSocket's connection being opened) whose handle libcurl
        /// drives, each in a multi handle of its own.
        var connecting = 0
    }
}
