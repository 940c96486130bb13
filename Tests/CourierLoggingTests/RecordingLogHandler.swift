import Logging
import Synchronization

/// A `LogHandler` that keeps every event in memory, for tests to read back.
struct RecordingLogHandler: LogHandler {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata

        /// A metadata value as text, or nil when absent.
        subscript(key: String) -> String? { metadata[key].map { "\($0)" } }

        /// Everything the entry says, as one text to search for secrets.
        var allText: String {
            ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    final class Store: Sendable {
        private let storage = Mutex<[Entry]>([])
        var entries: [Entry] { storage.withLock { $0 } }
        func append(_ entry: Entry) { storage.withLock { $0.append(entry) } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    /// A logger whose events go to a new store, and the store.
    static func logger(level: Logger.Level = .trace) -> (Logger, Store) {
        let store = Store()
        let logger = Logger(label: "courier.test") { _ in RecordingLogHandler(store: store, logLevel: level) }
        return (logger, store)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        merged.merge(event.metadata ?? [:]) { _, new in new }
        store.append(Entry(level: event.level, message: "\(event.message)", metadata: merged))
    }
}
