import Foundation

/// The `-o` progress line, as a pure function of the counts, so it is tested without a
/// terminal: percentage and bar when the size is known, bytes, rate, and time left (or time
/// taken, when the size is unknown or the transfer is over).
///
///     42% [###########.................]   12.6 MiB /  30.0 MiB    4.20 MiB/s  0:04 left
///      12.6 MiB    4.20 MiB/s  0:03
struct ProgressBar {
    /// Bytes of the body written so far.
    var bytes: Int64
    /// The body's size, when known.
    var total: Int64?
    /// Seconds since the request was sent.
    var elapsed: Double
    /// Whether the body is complete.
    var isFinished = false

    /// Average bytes per second so far; 0 before any time has passed.
    var rate: Double {
        elapsed > 0 ? Double(bytes) / elapsed : 0
    }

    /// The line for a terminal `width` columns wide, never longer than `width` unless even the
    /// counts alone do not fit.
    func line(width: Int) -> String {
        // Fixed widths, so that the bar does not change length as the numbers grow.
        var counts = Self.padLeft(Self.size(bytes), 9)
        if let total { counts += " / " + Self.padLeft(Self.size(total), 9) }
        counts += "  " + Self.padLeft(Self.size(rate, decimals: 2) + "/s", 12)
        if isFinished || total == nil {
            counts += "  " + Self.duration(elapsed)
        } else if let total, rate > 0 {
            counts += "  " + Self.duration(Double(max(0, total - bytes)) / rate) + " left"
        } else {
            counts += "  --:-- left"
        }
        guard let total else { return counts }
        let fraction = total > 0 ? min(1, Double(bytes) / Double(total)) : (isFinished ? 1 : 0)
        let percent = Self.padLeft("\(Int(fraction * 100))%", 4)
        // percent + " [" + bar + "]  " + counts
        let room = width - percent.count - 5 - counts.count
        guard room >= 10 else { return percent + "  " + counts }
        let filled = Int(fraction * Double(room))
        return percent + " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: room - filled) + "]  " + counts
    }

    /// `bytes` in B, KiB, MiB, GiB or TiB, with one decimal above bytes.
    static func size(_ bytes: Int64) -> String {
        size(Double(bytes), decimals: 1)
    }

    static func size(_ bytes: Double, decimals: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = bytes
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(Int(value)) B" }
        return String(format: "%.\(decimals)f %@", value, units[unit])
    }

    /// `m:ss`, or `h:mm:ss` from an hour; `--:--` for a time too long to be worth showing.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 100 * 3600 else { return "--:--" }
        let whole = Int(seconds.rounded())
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    private static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
