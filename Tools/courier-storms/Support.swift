#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// What the steps share: the process's own counts, the server child, the two transports behind
// one face, a tally of outcomes and a bounded wait for many requests.

enum ProcessCounts {
    /// Open descriptors of this process. Listing the directory opens one more; every count
    /// includes it, so comparisons are unaffected.
    static func descriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    static func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
    }

    /// Resident set size in KiB (`VmRSS`).
    static func residentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    static var descriptorLimit: rlimit {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return limit
    }

    @discardableResult
    static func setDescriptorLimit(_ limit: rlimit) -> Bool {
        var limit = limit
        return setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0
    }
}

/// `courier serve` as a child process, so that its listening and accepted sockets and its
/// threads are not counted as this process's.
final class ServerChild: Sendable {
    private let process: Foundation.Process
    /// `http://127.0.0.1:port`, no trailing slash.
    let base: String

    init(executable: URL) throws {
        let process = Foundation.Process()
        process.executableURL = executable
        process.arguments = ["serve"]
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            guard !more.isEmpty else { throw StormError.serverDidNotStart }
            line.append(more)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        self.process = process
        base = text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    func url(_ pathAndQuery: String) -> URL {
        URL(string: base + pathAndQuery) ?? URL(fileURLWithPath: "/")
    }

    /// SIGTERM, on which the server shuts down and exits.
    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

enum StormError: Error {
    case serverDidNotStart
    case wrongBody(expected: Int, got: Int)
    case unexpectedSuccess
}

enum Kind: String, CaseIterable, Sendable {
    case curl
    case urlSession = "urlsession"
}

/// One transport of either kind, with what the steps need of it.
final class Subject: Sendable {
    let kind: Kind
    let networking: Networking
    let streaming: StreamingNetworking
    let curl: CurlTransport?
    let session: URLSessionTransport?

    /// `connectionsPerHost` above the descriptor limit lets step 3 run out of descriptors.
    init(_ kind: Kind, connectionsPerHost: Int = 6) throws {
        self.kind = kind
        switch kind {
        case .curl:
            var configuration = CurlTransport.Configuration()
            configuration.maximumConnectionsPerHost = connectionsPerHost
            let transport = try CurlTransport(configuration: configuration)
            curl = transport
            session = nil
            networking = transport.networking
            streaming = transport.streaming
        case .urlSession:
            let transport = URLSessionTransport(configuration: .init(maximumConnectionsPerHost: connectionsPerHost))
            curl = nil
            session = transport
            networking = transport.networking
            streaming = transport.streaming
        }
    }

    /// Waits until everything is released.
    func shutdown() async {
        if let curl { await curl.shutdown() }
        if let session { await session.shutdown() }
    }

    /// Curl's handle counts, or nil for URLSession.
    var handles: (running: Int, pausedByBackPressure: Int, liveHandles: Int, idleHandles: Int, violations: Int)? {
        curl?.handleCounts
    }
}

/// Counts of outcomes by name, from many tasks.
final class Tally: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func add(_ name: String) {
        counts.withLock { $0[name, default: 0] += 1 }
    }

    var total: Int { counts.withLock { $0.values.reduce(0, +) } }

    func count(_ name: String) -> Int { counts.withLock { $0[name] ?? 0 } }

    func count(where matches: (String) -> Bool) -> Int {
        counts.withLock { $0.filter { matches($0.key) }.values.reduce(0, +) }
    }

    var summary: String {
        counts.withLock { $0 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}

/// A short, stable name for how a request ended.
func outcomeName(_ error: any Error) -> String {
    if error is CancellationError { return "cancelled" }
    if let error = error as? URLError {
        return error.code == .cancelled ? "cancelled" : "URLError(\(error.code.rawValue))"
    }
    if let error = error as? CurlError { return "CurlError(\(error))".prefix(48).description }
    if error is StormError { return "wrong(\(error))" }
    return String(describing: type(of: error))
}

/// Runs `operation(0..<count)` with `width` in flight and waits at most `limit`. Returns how
/// many returned; operations still running at the limit are left behind (and reported).
func runBounded(
    count: Int, width: Int, limit: Duration,
    _ operation: @escaping @Sendable (Int) async -> Void
) async -> (returned: Int, seconds: Double) {
    let returned = Counter()
    let start = ContinuousClock.now
    let work = Task {
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            while next < min(width, count) {
                let index = next
                group.addTask { await operation(index); returned.increment() }
                next += 1
            }
            while await group.next() != nil {
                if next < count {
                    let index = next
                    group.addTask { await operation(index); returned.increment() }
                    next += 1
                }
            }
        }
    }
    while returned.value < count, start.duration(to: .now) < limit {
        try? await Task.sleep(for: .milliseconds(20))
    }
    if returned.value == count { await work.value }
    return (returned.value, seconds(start.duration(to: .now)))
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Lets threads exit, sockets close and handles return to their pools.
func settle(_ duration: Duration = .seconds(2)) async {
    try? await Task.sleep(for: duration)
}

/// Chunks for a streamed upload: one chunk, then silence until cancelled. Counts its live
/// iterators, so a producer nobody cancelled shows up as a leak.
struct StallingUpload: AsyncSequence, Sendable {
    typealias Element = Data
    static let live = Atomic<Int>(0)

    struct AsyncIterator: AsyncIteratorProtocol {
        let token = Token()
        var sent = false

        mutating func next() async throws -> Data? {
            if !sent {
                sent = true
                return Data(repeating: 0x61, count: 4096)
            }
            try await Task.sleep(for: .seconds(3600))
            return nil
        }
    }

    final class Token: Sendable {
        init() { StallingUpload.live.add(1, ordering: .relaxed) }
        deinit { StallingUpload.live.subtract(1, ordering: .relaxed) }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}

/// Prints one result line and remembers failures.
final class Verdicts: Sendable {
    private let failures = Mutex<[String]>([])

    func check(_ name: String, _ passed: Bool, _ figures: String, bound: String) {
        let verdict = passed ? "PASS" : "FAIL"
        print("  \(verdict)  \(name): \(figures)  [bound: \(bound)]")
        fflush(nil)
        if !passed { failures.withLock { $0.append(name) } }
    }

    var failed: [String] { failures.withLock { $0 } }
}

func note(_ line: String) {
    print(line)
    fflush(nil)
}

/// A count shared by many tasks.
final class Counter: Sendable {
    private let atomic = Atomic<Int>(0)

    /// Adds one and returns the new value.
    @discardableResult
    func increment() -> Int { atomic.add(1, ordering: .relaxed).newValue }

    var value: Int { atomic.load(ordering: .relaxed) }
}
