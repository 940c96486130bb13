import Foundation

/// `HTTP-date` of RFC 9110 §5.6.7: the preferred IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`)
/// and the two obsolete shapes a recipient must also accept, rfc850-date
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime-date (`Sun Nov  6 08:49:37 1994`).
///
/// Anything else is invalid, which for `Expires` means already expired (RFC 9111 §5.3): unlike
/// a cookie's date (``CookieDate``), a cache must not guess at `UTC`, a two-digit year in the
/// preferred shape, or a missing comma. Names of days, months and `GMT` are compared without
/// regard to case, as browsers do; the grammar's spacing and digit counts are kept exactly.
enum HTTPDate {
    /// The instant `text` names, or nil when it is not an HTTP-date. `now` places rfc850-date's
    /// two-digit year: no more than 50 years ahead of it.
    static func parse(_ text: String, now: Date = Date()) -> Date? {
        let bytes = Array(text.utf8)
        return imfFixdate(bytes) ?? rfc850Date(bytes, now: now) ?? asctimeDate(bytes)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func imfFixdate(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 29, shortDays.contains(lowercased(bytes[0..<3])), bytes[3] == comma, bytes[4] == space,
            let day = number(bytes[5..<7]), bytes[7] == space, let month = month(bytes[8..<11]), bytes[11] == space,
            let year = number(bytes[12..<16]), bytes[16] == space, bytes[25] == space, isGMT(bytes[26..<29])
        else { return nil }
        return date(year: year, month: month, day: day, time: bytes[17..<25])
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`
    private static func rfc850Date(_ bytes: [UInt8], now: Date) -> Date? {
        guard let comma = bytes.firstIndex(of: comma), longDays.contains(lowercased(bytes[..<comma])) else { return nil }
        let rest = bytes[(comma + 1)...]
        guard rest.count == 23 else { return nil }
        let at = rest.startIndex
        guard rest[at] == space, let day = number(rest[(at + 1)..<(at + 3)]), rest[at + 3] == dash,
            let month = month(rest[(at + 4)..<(at + 7)]), rest[at + 7] == dash, let twoDigits = number(rest[(at + 8)..<(at + 10)]),
            rest[at + 10] == space, rest[at + 19] == space, isGMT(rest[(at + 20)..<(at + 23)])
        else { return nil }
        // §5.6.7: a year more than 50 years ahead is the most recent past one with those digits.
        let thisYear = Calendar(identifier: .gregorian).dateComponents(in: utc, from: now).year ?? 1970
        var year = thisYear - thisYear % 100 + twoDigits
        if year > thisYear + 50 { year -= 100 }
        return date(year: year, month: month, day: day, time: rest[(at + 11)..<(at + 19)])
    }

    /// `Sun Nov  6 08:49:37 1994`
    private static func asctimeDate(_ bytes: [UInt8]) -> Date? {
        guard bytes.count == 24, shortDays.contains(lowercased(bytes[0..<3])), bytes[3] == space,
            let month = month(bytes[4..<7]), bytes[7] == space, bytes[10] == space, bytes[19] == space,
            let year = number(bytes[20..<24])
        else { return nil }
        // date3's day is two digits or a space and one digit.
        let day = bytes[8] == space ? number(bytes[9..<10]) : number(bytes[8..<10])
        guard let day else { return nil }
        return date(year: year, month: month, day: day, time: bytes[11..<19])
    }

    /// The instant of a valid calendar date and `HH:MM:SS` in GMT; nil for 31 April or 25:00:00.
    private static func date(year: Int, month: Int, day: Int, time: ArraySlice<UInt8>) -> Date? {
        let at = time.startIndex
        guard time.count == 8, time[at + 2] == colon, time[at + 5] == colon,
            let hour = number(time[at..<(at + 2)]), let minute = number(time[(at + 3)..<(at + 5)]),
            let second = number(time[(at + 6)..<(at + 8)]),
            hour < 24, minute < 60, second <= 60, (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar, counted in 400-year
    /// eras of 146,097 days from 1 March, so that the leap day ends a year.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The value of exactly these ASCII digits.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    private static func month(_ name: ArraySlice<UInt8>) -> Int? {
        months.firstIndex(of: lowercased(name)).map { $0 + 1 }
    }

    private static func isGMT(_ name: ArraySlice<UInt8>) -> Bool {
        lowercased(name) == "gmt"
    }

    private static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).lowercased()
    }

    private static let shortDays: Set = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays: Set = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let utc = TimeZone(identifier: "GMT") ?? TimeZone.current
    private static let space = UInt8(ascii: " ")
    private static let comma = UInt8(ascii: ",")
    private static let dash = UInt8(ascii: "-")
    private static let colon = UInt8(ascii: ":")
}
