#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Descriptors a settled process may hold beyond its baseline: a transport keeps idle pooled
/// connections (6 per host by default), and the baseline was taken with some of them open.
let descriptorTolerance = 6
/// Threads a settled process may hold beyond its baseline: the cooperative pool and
/// FoundationNetworking's queues grow and shrink on their own.
let threadTolerance = 4

struct Steps {
    let server: ServerChild
    let refused: RefusingPort
    let scale: Double
    let kinds: [Kind]
    let verdicts: Verdicts
    /// The cancel storm's phases to run (0...9); all when empty.
    var phases: [Int] = Array(0...9)

    func scaled(_ count: Int) -> Int { max(1, Int((Double(count) * scale).rounded())) }

    func warmUp(_ subject: Subject) async {
        _ = await runBounded(count: 200, width: 16, limit: .seconds(30)) { index in
            _ = try? await subject.networking(URLRequest(url: server.url("/bytes/\(index % 64)")))
        }
    }

    // MARK: 1. Cancel storm

    /// One request of the storm, cancelled at a random moment of one of its phases.
    func cancelled(_ subject: Subject, index: Int, tally: Tally) async {
        var random = SystemRandomNumberGenerator()
        let phase = phases[index % phases.count]
        let server = server
        let task: Task<String, Never>
        let delay: Duration
        func outcome(_ body: @escaping @Sendable () async throws -> Void) -> Task<String, Never> {
            Task {
                do { try await body(); return "completed" } catch { return outcomeName(error) }
            }
        }
        func get(_ path: String) -> Task<String, Never> {
            outcome { _ = try await subject.networking(URLRequest(url: server.url(path))) }
        }
        func stream(_ path: String, upload: RequestBody? = nil, method: String = "GET") -> Task<String, Never> {
            outcome {
                var request = URLRequest(url: server.url(path))
                request.httpMethod = method
                let (body, _) = try await subject.streaming(request, upload)
                for try await _ in body {}
            }
        }
        switch phase {
        case 0:  // queued behind the per-host limit (the storm keeps far more in flight)
            task = get("/delay/0.2")
            delay = .microseconds(Int.random(in: 0...2_000, using: &random))
        case 1:  // connecting or just connected
            task = get("/get")
            delay = .microseconds(Int.random(in: 0...300, using: &random))
        case 2:  // request sent, head never comes
            task = get("/never")
            delay = .milliseconds(Int.random(in: 1...30, using: &random))
        case 3:  // head delayed
            task = get("/delay/5")
            delay = .milliseconds(Int.random(in: 1...30, using: &random))
        case 4:  // mid-body, buffered, one byte every 2 ms
            task = get("/drip/1000?interval_ms=2")
            delay = .milliseconds(Int.random(in: 2...40, using: &random))
        case 5:  // mid-body, streamed and read as fast as it comes
            task = stream("/infinite")
            delay = .milliseconds(Int.random(in: 1...30, using: &random))
        case 6:  // mid-body, streamed, the server stalls halfway
            task = stream("/stall/20000")
            delay = .milliseconds(Int.random(in: 1...30, using: &random))
        case 7:  // mid-upload, the producer stalls after its first chunk
            task = stream("/sink", upload: .stream(StallingUpload()), method: "POST")
            delay = .milliseconds(Int.random(in: 1...30, using: &random))
        case 8:  // the server closes without a reply
            task = get("/close")
            delay = .microseconds(Int.random(in: 0...3_000, using: &random))
        default:  // the server resets halfway through the body
            task = get("/truncate/200000")
            delay = .microseconds(Int.random(in: 0...3_000, using: &random))
        }
        try? await Task.sleep(for: delay)
        task.cancel()
        tally.add("p\(phase):" + (await task.value))
    }

    func cancelStorm() async throws {
        let count = scaled(10_000)
        note("1. cancel storm: \(count) requests per transport, 128 in flight, cancelled in 10 phases (queued, connecting, /never, /delay, /drip, streamed /infinite, /stall, stalled upload, /close, /truncate)")
        for kind in kinds {
            let isolated = isolatesWedgingPhases && kind == .urlSession ? phases.filter(Self.urlSessionWedgingPhases.contains) : []
            var storm = self
            storm.phases = phases.filter { !isolated.contains($0) }
            let steps = storm
            if !isolated.isEmpty {
                await runIsolated(kind: kind, phases: isolated)
            }
            if steps.phases.isEmpty { continue }
            let subject = try Subject(kind)
            await warmUp(subject)
            await settle(.milliseconds(500))
            let descriptors = ProcessCounts.descriptors()
            let threads = ProcessCounts.threads()
            let tally = Tally()
            let run = await runBounded(count: count, width: 128, limit: .seconds(60)) { index in
                await steps.cancelled(subject, index: index, tally: tally)
            }
            await settle()
            let afterDescriptors = ProcessCounts.descriptors()
            let afterThreads = ProcessCounts.threads()
            let producers = StallingUpload.live.load(ordering: .relaxed)
            let cancelledCount = tally.count { $0.hasSuffix(":cancelled") }
            let completed = tally.count { $0.hasSuffix(":completed") }
            note("  \(kind.rawValue): \(String(format: "%.1f", run.seconds)) s, \(cancelledCount) cancelled, \(completed) completed first, \(run.returned - cancelledCount - completed) failed first")
            note("    outcomes: \(tally.summary)")
            verdicts.check(
                "\(kind.rawValue) cancel storm: every task returned", run.returned == count,
                "\(run.returned)/\(count) returned", bound: "all, within 60 s"
            )
            verdicts.check(
                "\(kind.rawValue) cancel storm: stalled upload producers released", producers == 0,
                "\(producers) still alive", bound: "0"
            )
            checkBaseline(
                "\(kind.rawValue) cancel storm", descriptors: (descriptors, afterDescriptors), threads: (threads, afterThreads)
            )
            if let handles = subject.handles {
                verdicts.check(
                    "curl cancel storm: easy handles",
                    handles.running == 0 && handles.liveHandles == handles.idleHandles && handles.violations == 0
                        && handles.pausedByBackPressure == 0,
                    "running \(handles.running), paused \(handles.pausedByBackPressure), live \(handles.liveHandles), idle \(handles.idleHandles), violations \(handles.violations)",
                    bound: "running 0, live == idle, violations 0"
                )
            }
            await release(subject)
        }
    }

    /// Phases that wedge a URLSessionTransport process (see scripts/storms in README): run in a
    /// child process with a time limit, so the other steps still run and report.
    static let urlSessionWedgingPhases: Set<Int> = [5]
    /// Whether those phases run in a child process; false in that child itself.
    var isolatesWedgingPhases = true

    /// Runs the cancel storm's `phases` on `kind` in a child process, killed after 90 s.
    func runIsolated(kind: Kind, phases: [Int]) async {
        await runChild(
            name: "\(kind.rawValue) cancel storm, phases \(phases) in a child process",
            arguments: ["--step", "1", "--transport", kind.rawValue, "--scale", String(scale)] + phases.flatMap { ["--phase", String($0)] },
            limit: .seconds(90), verdicts: verdicts
        )
    }

    /// Checks that a step left descriptors and threads within their tolerances of `before`.
    func checkBaseline(_ step: String, descriptors: (before: Int, after: Int), threads: (before: Int, after: Int)) {
        verdicts.check(
            "\(step): descriptors", descriptors.after <= descriptors.before + descriptorTolerance,
            "\(descriptors.before) before, \(descriptors.after) after", bound: "≤ before + \(descriptorTolerance)"
        )
        verdicts.check(
            "\(step): threads", threads.after <= threads.before + threadTolerance,
            "\(threads.before) before, \(threads.after) after", bound: "≤ before + \(threadTolerance)"
        )
    }

    /// Shuts `subject` down, or reports that it did not finish within 30 s.
    func release(_ subject: Subject) async {
        let finished = await runBounded(count: 1, width: 1, limit: .seconds(30)) { _ in await subject.shutdown() }
        if finished.returned == 0 {
            verdicts.check("\(subject.kind.rawValue) shutdown", false, "still running after 30 s", bound: "returns")
        }
    }

    // MARK: 2. Many transports

    /// Creates a transport, starts requests on it and releases it while they run: shut down
    /// and awaited when `shutsDown`, else only dropped once the requests no longer hold it.
    func shortLived(_ kind: Kind, shutsDown: Bool, tally: Tally) async {
        guard var subject = Optional(try? Subject(kind)), let live = subject else {
            tally.add("transport not created")
            return
        }
        let server = server
        let networking = live.networking
        let streaming = live.streaming
        var requests: [Task<String, Never>] = []
        let paths = shutsDown ? ["/never", "/drip/100?interval_ms=5", "/delay/1"] : ["/delay/0.02", "/drip/4?interval_ms=5", "/close"]
        for path in paths {
            requests.append(Task {
                do { _ = try await networking(URLRequest(url: server.url(path))); return "completed" } catch { return outcomeName(error) }
            })
        }
        requests.append(Task {
            do {
                let (body, _) = try await streaming(URLRequest(url: server.url("/infinite")), nil)
                var iterator = body.makeAsyncIterator()
                _ = try await iterator.next()
                return "streamed"  // the body is dropped unread
            } catch { return outcomeName(error) }
        })
        try? await Task.sleep(for: .milliseconds(Int.random(in: 1...10)))
        if shutsDown {
            await live.shutdown()
        }
        subject = nil
        for request in requests {
            tally.add((shutsDown ? "shutdown:" : "dropped:") + (await request.value))
        }
    }

    func manyTransports() async throws {
        let count = scaled(1_000)
        note("2. \(count) transports per kind, each with 4 requests in flight (/never or /delay, /drip, /close, streamed /infinite); half shut down, half dropped")
        for kind in kinds {
            let warm = try Subject(kind)
            await warmUp(warm)
            await warm.shutdown()
            await settle(.milliseconds(500))
            let descriptors = ProcessCounts.descriptors()
            let threads = ProcessCounts.threads()
            let tally = Tally()
            let run = await runBounded(count: count, width: 4, limit: .seconds(240)) { index in
                await shortLived(kind, shutsDown: index.isMultiple(of: 2), tally: tally)
            }
            await settle(.seconds(3))
            let afterDescriptors = ProcessCounts.descriptors()
            let afterThreads = ProcessCounts.threads()
            note("  \(kind.rawValue): \(String(format: "%.1f", run.seconds)) s; outcomes: \(tally.summary)")
            verdicts.check(
                "\(kind.rawValue) transports: every lifetime ended", run.returned == count,
                "\(run.returned)/\(count)", bound: "all, within 240 s"
            )
            checkBaseline(
                "\(kind.rawValue) transports", descriptors: (descriptors, afterDescriptors), threads: (threads, afterThreads)
            )
        }
    }

    // MARK: 3. Descriptor limit

    func descriptorLimit() async throws {
        let count = scaled(500)
        let recovery = scaled(100)
        note("3. RLIMIT_NOFILE lowered to 64 with \(count) requests outstanding, up to 512 connections per host (/delay/0.3, /bytes/4096, streamed /stream-bytes, /drip, /close), then restored and \(recovery) requests")
        for kind in kinds {
            let subject = try Subject(kind, connectionsPerHost: 512)
            await warmUp(subject)
            let original = ProcessCounts.descriptorLimit
            let before = ProcessCounts.descriptors()
            let tally = Tally()
            var lowered = original
            lowered.rlim_cur = 64
            guard ProcessCounts.setDescriptorLimit(lowered) else {
                verdicts.check("\(kind.rawValue) descriptor limit: setrlimit", false, "errno \(errno)", bound: "succeeds")
                continue
            }
            let server = server
            let run = await runBounded(count: count, width: count, limit: .seconds(120)) { index in
                do {
                    switch index % 5 {
                    case 0: _ = try await subject.networking(URLRequest(url: server.url("/delay/0.3")))
                    case 1: _ = try await subject.networking(URLRequest(url: server.url("/bytes/4096")))
                    case 2:
                        let (body, _) = try await subject.streaming(URLRequest(url: server.url("/stream-bytes/65536?chunk_size=4096")), nil)
                        _ = try await body.collect(upTo: 1 << 20)
                    case 3: _ = try await subject.networking(URLRequest(url: server.url("/drip/5?interval_ms=20")))
                    default: _ = try await subject.networking(URLRequest(url: server.url("/close")))
                    }
                    tally.add("response")
                } catch {
                    tally.add(outcomeName(error))
                }
            }
            ProcessCounts.setDescriptorLimit(original)
            let untyped = tally.count { !($0 == "response" || $0.hasPrefix("URLError") || $0.hasPrefix("CurlError")) }
            note("  \(kind.rawValue): \(before) descriptors open before; \(String(format: "%.1f", run.seconds)) s; outcomes: \(tally.summary)")
            verdicts.check(
                "\(kind.rawValue) descriptor limit: every request ended", run.returned == count,
                "\(run.returned)/\(count) ended", bound: "all, within 120 s"
            )
            verdicts.check(
                "\(kind.rawValue) descriptor limit: only responses and typed errors", untyped == 0,
                "\(untyped) other", bound: "0"
            )
            await settle(.milliseconds(500))
            let succeeded = Counter()
            _ = await runBounded(count: recovery, width: 16, limit: .seconds(60)) { index in
                if let (data, _) = try? await subject.networking(URLRequest(url: server.url("/bytes/\(1000 + index)"))),
                   data.count == 1000 + index {
                    succeeded.increment()
                }
            }
            let recovered = succeeded.value
            verdicts.check(
                "\(kind.rawValue) descriptor limit: recovery", recovered == recovery,
                "\(recovered)/\(recovery) succeeded after restoring the limit", bound: "all"
            )
            await release(subject)
        }
    }

    // MARK: 4. Soak

    /// One soak request: what it asks for and whether the outcome is the right one.
    func soakRequest(_ subject: Subject, index: Int, tally: Tally) async {
        let server = server
        let bucket = index % 100
        func expectBytes(_ data: Data, _ count: Int) throws {
            guard data.count == count else { throw StormError.wrongBody(expected: count, got: data.count) }
        }
        func expectFailure(_ name: String, _ body: () async throws -> Void) async {
            do {
                try await body()
                tally.add("\(name):unexpected success")
            } catch {
                let outcome = outcomeName(error)
                tally.add(outcome.hasPrefix("URLError") || outcome.hasPrefix("CurlError") ? "\(name):failed" : "\(name):unexpected \(outcome)")
            }
        }
        func expectSuccess(_ name: String, _ body: () async throws -> Void) async {
            do {
                try await body()
                tally.add("\(name):ok")
            } catch {
                tally.add("\(name):unexpected \(outcomeName(error))")
            }
        }
        switch bucket {
        case 0..<36:
            let size = [64, 1024, 16384][bucket % 3]
            await expectSuccess("bytes") { try expectBytes(try await subject.networking(URLRequest(url: server.url("/bytes/\(size)"))).0, size) }
        case 36..<40:
            await expectSuccess("bytes-256k") { try expectBytes(try await subject.networking(URLRequest(url: server.url("/bytes/262144"))).0, 262144) }
        case 40..<50:
            await expectSuccess("streamed") {
                let (body, _) = try await subject.streaming(URLRequest(url: server.url("/stream-bytes/65536?chunk_size=8192")), nil)
                try expectBytes(try await body.collect(upTo: 1 << 20), 65536)
            }
        case 50..<57:
            await expectSuccess("redirect3") {
                let (_, response) = try await subject.networking(URLRequest(url: server.url("/redirect/3")))
                guard (response as? HTTPURLResponse)?.statusCode == 200, response.url?.path == "/get" else { throw StormError.unexpectedSuccess }
            }
        case 57..<62:
            do {
                let (_, response) = try await subject.networking(URLRequest(url: server.url("/status/500")))
                tally.add((response as? HTTPURLResponse)?.statusCode == 500 ? "status500:ok" : "status500:unexpected status")
            } catch {
                tally.add("status500:unexpected \(outcomeName(error))")
            }
        case 62..<67:
            await expectFailure("truncate") { _ = try await subject.networking(URLRequest(url: server.url("/truncate/65536"))) }
        case 67..<72:
            await expectFailure("refused") { _ = try await subject.networking(URLRequest(url: refused.url("/get"))) }
        case 72..<77:
            await expectFailure("close") { _ = try await subject.networking(URLRequest(url: server.url("/close"))) }
        case 77..<82:
            await expectSuccess("drip") { try expectBytes(try await subject.networking(URLRequest(url: server.url("/drip/10?interval_ms=1"))).0, 10) }
        case 82..<87:
            await expectSuccess("upload") {
                var request = URLRequest(url: server.url("/sink"))
                request.httpMethod = "POST"
                let (body, response) = try await subject.streaming(request, .data(Data(repeating: 0x62, count: 16384)))
                _ = try await body.collect(upTo: 1 << 16)
                guard response.statusCode == 200 else { throw StormError.unexpectedSuccess }
            }
        default:
            await expectSuccess("get") { _ = try await subject.networking(URLRequest(url: server.url("/get"))) }
        }
    }

    func soak() async throws {
        let count = scaled(100_000)
        let checkpoint = max(1, count / 5)
        let growthBoundMiB = 32
        note("4. soak: \(count) requests per transport, 32 in flight: /bytes of 64 B–256 KiB, streamed /stream-bytes, /redirect/3, /status/500, /truncate, refused port, /close, /drip, streamed uploads to /sink, /get")
        for kind in kinds {
            let subject = try Subject(kind)
            let warmTally = Tally()
            _ = await runBounded(count: 2_000, width: 32, limit: .seconds(120)) { index in
                await soakRequest(subject, index: index, tally: warmTally)
            }
            await settle(.milliseconds(500))
            let startRSS = ProcessCounts.residentKiB()
            let startDescriptors = ProcessCounts.descriptors()
            note("  \(kind.rawValue) after warm-up: RSS \(startRSS / 1024) MiB, \(startDescriptors) descriptors")
            let tally = Tally()
            let done = Counter()
            let start = ContinuousClock.now
            let run = await runBounded(count: count, width: 32, limit: .seconds(600)) { index in
                await soakRequest(subject, index: index, tally: tally)
                let finished = done.increment()
                if finished.isMultiple(of: checkpoint) {
                    note("  \(kind.rawValue) \(finished) requests: RSS \(ProcessCounts.residentKiB() / 1024) MiB, \(ProcessCounts.descriptors()) descriptors, \(String(format: "%.0f", Double(finished) / seconds(start.duration(to: .now)))) req/s")
                }
            }
            await settle(.milliseconds(500))
            let endRSS = ProcessCounts.residentKiB()
            let endDescriptors = ProcessCounts.descriptors()
            let unexpected = tally.count { $0.contains("unexpected") }
            note("  \(kind.rawValue) end: RSS \(endRSS / 1024) MiB, \(endDescriptors) descriptors, \(String(format: "%.1f", run.seconds)) s")
            note("    outcomes: \(tally.summary)")
            verdicts.check(
                "\(kind.rawValue) soak: every request ended as expected", run.returned == count && unexpected == 0,
                "\(run.returned)/\(count) returned, \(unexpected) unexpected outcomes", bound: "all, 0 unexpected"
            )
            verdicts.check(
                "\(kind.rawValue) soak: RSS growth", endRSS - startRSS < growthBoundMiB * 1024,
                String(format: "%+.1f MiB (%d → %d MiB)", Double(endRSS - startRSS) / 1024, startRSS / 1024, endRSS / 1024),
                bound: "< \(growthBoundMiB) MiB"
            )
            verdicts.check(
                "\(kind.rawValue) soak: descriptors flat", abs(endDescriptors - startDescriptors) <= descriptorTolerance,
                "\(startDescriptors) → \(endDescriptors)", bound: "±\(descriptorTolerance)"
            )
            await release(subject)
        }
    }
}

/// Runs this executable with `arguments` plus `--isolated` as a child process, prints its lines
/// indented, and records FAIL unless it exits 0 within `limit` (killed then). A step that wedges
/// a process this way still lets the others run, on a clean process each.
func runChild(name: String, arguments: [String], limit: Duration, verdicts: Verdicts) async {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("courier-storms-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: output) }
    guard let handle = try? FileHandle(forWritingTo: output) else { return }
    let child = Foundation.Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    child.arguments = ["--isolated"] + arguments
    child.standardOutput = handle
    child.standardError = handle
    let start = ContinuousClock.now
    do { try child.run() } catch {
        verdicts.check(name, false, "could not start: \(error)", bound: "runs")
        return
    }
    var printed = 0
    func relay() {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for line in lines.dropFirst(printed) where !line.hasPrefix("courier-storms:") && !line.hasPrefix("total ") {
            note(line.hasPrefix("  ") ? String(line) : "  \(line)")
        }
        printed = max(printed, lines.count)
    }
    while child.isRunning, start.duration(to: .now) < limit {
        try? await Task.sleep(for: .milliseconds(200))
        relay()
    }
    let timedOut = child.isRunning
    if timedOut {
        kill(child.processIdentifier, SIGKILL)
    }
    child.waitUntilExit()
    try? handle.close()
    relay()
    let elapsed = String(format: "%.0f", seconds(start.duration(to: .now)))
    let figures: String
    if timedOut {
        figures = "killed after \(elapsed) s: the process wedged"
    } else if child.terminationReason == .uncaughtSignal {
        figures = "crashed with signal \(child.terminationStatus) after \(elapsed) s"
    } else {
        figures = "exit \(child.terminationStatus) after \(elapsed) s"
    }
    verdicts.check(name, !timedOut && child.terminationStatus == 0 && child.terminationReason == .exit, figures, bound: "exits 0 within \(Int(seconds(limit))) s")
}
