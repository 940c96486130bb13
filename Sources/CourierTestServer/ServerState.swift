import NIOConcurrencyHelpers
import NIOCore

/// What a ``TestServer`` and its connections share: counters, the last request and the open
/// connections that `shutdown()` must close.
///
/// Every method is a short critical section; channels are closed by the caller after the
/// lock is released, since closing runs callbacks that come back here.
final class ServerState: Sendable {
    private struct Storage {
        var acceptedConnectionCount = 0
        var requestCount = 0
        var finishedBodyCount = 0
        var lastRequest: RecordedRequest?
        var visits: [String: Int] = [:]
        var openConnections: [ObjectIdentifier: any Channel] = [:]
        var isShutDown = false
    }

    // NIO's lock (a pthread mutex) rather than Synchronization.Mutex: ThreadSanitizer does not
    // see the futex-based Mutex on Linux and reported every access here as a race.
    private let storage = NIOLockedValueBox(Storage())

    /// Every response carries `Connection: close` and its connection closes after it.
    let closesEveryConnection: Bool

    init(closesEveryConnection: Bool = false) {
        self.closesEveryConnection = closesEveryConnection
    }

    var acceptedConnectionCount: Int { storage.withLockedValue { $0.acceptedConnectionCount } }
    var requestCount: Int { storage.withLockedValue { $0.requestCount } }
    var finishedBodyCount: Int { storage.withLockedValue { $0.finishedBodyCount } }

    func bodyFinished() {
        storage.withLockedValue { $0.finishedBodyCount += 1 }
    }
    var lastRequest: RecordedRequest? { storage.withLockedValue { $0.lastRequest } }

    /// Counts and tracks `channel`; `false` means the server is shut down and the caller
    /// must close it instead.
    func connectionAccepted(_ channel: any Channel) -> Bool {
        storage.withLockedValue { storage in
            guard !storage.isShutDown else { return false }
            storage.acceptedConnectionCount += 1
            storage.openConnections[ObjectIdentifier(channel)] = channel
            return true
        }
    }

    func connectionClosed(_ channel: any Channel) {
        _ = storage.withLockedValue { $0.openConnections.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func record(_ request: RecordedRequest) {
        storage.withLockedValue { storage in
            storage.requestCount += 1
            storage.lastRequest = request
        }
    }

    /// Counts a request for `key` and returns its number, 1 for the first.
    func visit(_ key: String) -> Int {
        storage.withLockedValue { storage in
            storage.visits[key, default: 0] += 1
            return storage.visits[key, default: 0]
        }
    }

    func forgetVisits(_ key: String) {
        _ = storage.withLockedValue { $0.visits.removeValue(forKey: key) }
    }

    /// The requests counted for `key` so far.
    func visits(_ key: String) -> Int {
        storage.withLockedValue { $0.visits[key, default: 0] }
    }

    /// Marks the server shut down and hands back the connections still open, for the caller
    /// to close; later calls return none.
    func shutDown() -> [any Channel] {
        storage.withLockedValue { storage in
            storage.isShutDown = true
            defer { storage.openConnections = [:] }
            return Array(storage.openConnections.values)
        }
    }
}
