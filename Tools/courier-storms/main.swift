import CourierTestServer
import Foundation

// Storms and a soak against both transports, each step printing its figures and PASS or FAIL
// against a stated bound: 1. thousands of requests cancelled at random phases, 2. transports
// created and released with requests in flight, 3. RLIMIT_NOFILE lowered to 64 under load, then
// recovery, 4. a long mixed soak watching RSS and descriptors. Exits 1 on any FAIL.
// Run it with scripts/storms (release build). The test server runs as a child process
// (`courier serve`, found next to this executable) so that its sockets and threads are not
// counted as the client's.
//
//     courier-storms [--quick] [--scale X] [--step N]... [--transport curl|urlsession] [--phase N]...

var scale = 1.0
var onlySteps: Set<Int> = []
var kinds = Kind.allCases
var phases: [Int] = []
var isolated = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--quick": scale = 0.05
    case "--scale":
        guard let value = arguments.next().flatMap(Double.init), value > 0 else {
            note("--scale needs a positive number")
            exit(64)
        }
        scale = value
    case "--step":
        guard let value = arguments.next().flatMap(Int.init), (1...4).contains(value) else {
            note("--step needs 1...4")
            exit(64)
        }
        onlySteps.insert(value)
    case "--isolated": isolated = true
    case "--phase":
        guard let value = arguments.next().flatMap(Int.init), (0...9).contains(value) else {
            note("--phase needs 0...9")
            exit(64)
        }
        phases.append(value)
    case "--transport":
        guard let value = arguments.next().flatMap(Kind.init(rawValue:)) else {
            note("--transport needs curl or urlsession")
            exit(64)
        }
        kinds = [value]
    default:
        note("usage: courier-storms [--quick] [--scale X] [--step N]... [--transport curl|urlsession] [--phase 0...9]...")
        exit(64)
    }
}

let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
let serverExecutable = executable.deletingLastPathComponent().appendingPathComponent("courier")
let server: ServerChild
do {
    server = try ServerChild(executable: serverExecutable)
} catch {
    note("could not start \(serverExecutable.path) serve: \(error)")
    exit(1)
}
let refused = try await RefusingPort.open()
let verdicts = Verdicts()
if !isolated {
    note("courier-storms: every step and transport runs in its own child process; scale \(scale), \(ProcessInfo.processInfo.activeProcessorCount) cores")
}
var steps = Steps(server: server, refused: refused, scale: scale, kinds: kinds, verdicts: verdicts)
if !phases.isEmpty { steps.phases = phases }
// Phase 5 goes to a grandchild unless this process was asked for given phases.
steps.isolatesWedgingPhases = phases.isEmpty
let started = ContinuousClock.now
note("courier-storms: server \(server.base) (child process), scale \(scale), transports \(kinds.map(\.rawValue).joined(separator: ", ")), \(ProcessInfo.processInfo.activeProcessorCount) cores")
let all: [(Int, () async throws -> Void)] = [
    (1, steps.cancelStorm), (2, steps.manyTransports), (3, steps.descriptorLimit), (4, steps.soak),
]
// Time limits of a step on one transport when it runs in a child process.
let limits: [Int: Duration] = [1: .seconds(180), 2: .seconds(180), 3: .seconds(180), 4: .seconds(600)]
for (number, step) in all where onlySteps.isEmpty || onlySteps.contains(number) {
    let stepStart = ContinuousClock.now
    if isolated {
        do {
            try await step()
        } catch {
            verdicts.check("step \(number)", false, "threw \(error)", bound: "runs")
        }
    } else {
        // Each step and transport in its own process: a clean baseline, and a wedge or crash in
        // one is a FAIL line rather than the end of the run.
        for kind in kinds {
            await runChild(
                name: "step \(number) on \(kind.rawValue) (child process)",
                arguments: ["--step", String(number), "--transport", kind.rawValue, "--scale", String(scale)]
                    + phases.flatMap { ["--phase", String($0)] },
                limit: limits[number] ?? .seconds(600), verdicts: verdicts
            )
        }
    }
    note("   step \(number) took \(String(format: "%.0f", seconds(stepStart.duration(to: .now)))) s")
}
try? await refused.close()
server.stop()
let failed = verdicts.failed
note("total \(String(format: "%.0f", seconds(started.duration(to: .now)))) s; \(failed.isEmpty ? "all PASS" : "\(failed.count) FAIL: \(failed.joined(separator: "; "))")")
exit(failed.isEmpty ? 0 : 1)
