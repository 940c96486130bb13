import Foundation

/// Helpers shared by the cookie tests. Dates come from `Calendar`, not from the cookie-date
/// code under test, so the two can disagree.

func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    return calendar.date(from: components) ?? .distantPast
}

/// A fixed "now" for tests that must not depend on the clock.
let cookieEpoch = utc(2025, 6, 1, 12, 0, 0)

func testURL(_ string: String) -> URL {
    URL(string: string) ?? URL(fileURLWithPath: "/invalid-test-url")
}
