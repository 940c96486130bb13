import Testing
@testable import courier

/// The `-o` progress line, rendered without a terminal.
@Suite struct ProgressBarTests {
    @Test func aKnownSizeShowsPercentBarCountsRateAndTimeLeft() {
        let bar = ProgressBar(bytes: 25 << 20, total: 100 << 20, elapsed: 5)
        let line = bar.line(width: 79)
        #expect(line.count == 79)
        #expect(line.hasPrefix(" 25% [#"))
        #expect(line.hasSuffix("]   25.0 MiB / 100.0 MiB    5.00 MiB/s  0:15 left"))
        let inside = line.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }
        #expect(inside.filter { $0 == "#" }.count == inside.count / 4)
    }

    @Test func aFinishedTransferShowsTheTimeItTook() {
        let line = ProgressBar(bytes: 1 << 30, total: 1 << 30, elapsed: 64, isFinished: true).line(width: 79)
        #expect(line.hasPrefix("100% [####"))
        #expect(!line.prefix { $0 != "]" }.contains("."))
        #expect(line.hasSuffix("]    1.0 GiB /   1.0 GiB   16.00 MiB/s  1:04"))
    }

    @Test func anUnknownSizeHasNoBar() {
        let line = ProgressBar(bytes: 1536, total: nil, elapsed: 2).line(width: 79)
        #expect(line == "  1.5 KiB       768 B/s  0:02")
    }

    @Test func beforeAnyByteTheTimeLeftIsUnknown() {
        let line = ProgressBar(bytes: 0, total: 500, elapsed: 0).line(width: 70)
        #expect(line.hasPrefix("  0% [.........."))
        #expect(line.hasSuffix("]        0 B /     500 B         0 B/s  --:-- left"))
        #expect(line.count == 70)
    }

    @Test func aNarrowTerminalDropsTheBarRatherThanTheCounts() {
        let line = ProgressBar(bytes: 10, total: 20, elapsed: 1).line(width: 30)
        #expect(line == " 50%       10 B /      20 B        10 B/s  0:01 left")
    }

    @Test func anEmptyBodyIsCompleteOnceFinished() {
        #expect(ProgressBar(bytes: 0, total: 0, elapsed: 0.1, isFinished: true).line(width: 70).hasPrefix("100% [###"))
    }

    @Test(arguments: [(0.0, "0:00"), (59.4, "0:59"), (61, "1:01"), (3600, "1:00:00"), (3661, "1:01:01"), (.infinity, "--:--"), (-1, "--:--")])
    func durations(seconds: Double, text: String) {
        #expect(ProgressBar.duration(seconds) == text)
    }

    @Test(arguments: [(Int64(0), "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (1_572_864, "1.5 MiB"), (5 << 40, "5.0 TiB")])
    func sizes(bytes: Int64, text: String) {
        #expect(ProgressBar.size(bytes) == text)
    }
}
