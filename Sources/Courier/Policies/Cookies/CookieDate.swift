import Foundation

/// The cookie-date algorithm of RFC 6265 §5.1.1, as amended by erratum 4148 (the text after
/// the digits of a day, year or time is optional).
///
/// Servers send `Expires` in RFC 1123, RFC 850 and asctime shapes and in mixtures of them; the
/// algorithm finds a time, a day, a month and a year among the tokens in any order and refuses
/// out-of-range fields. A lenient `DateFormatter` would instead roll "31 Feb" over into March
/// and would depend on the process's locale.
enum CookieDate {
    /// Returns the instant `text` names in UTC, or `nil` when the algorithm fails.
    static func parse(_ text: String) -> Date? {
        var fields = Fields()
        for token in Array(text.utf8).split(whereSeparator: isDelimiter) {
            fields.take(token)
        }
        return fields.date
    }

    /// `delimiter` of §5.1.1: every octet that cannot be part of a date token.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x20...0x2F, 0x3B...0x40, 0x5B...0x60, 0x7B...0x7E: true
        default: false
        }
    }

    private struct Fields {
        var time: (hour: Int, minute: Int, second: Int)?
        var dayOfMonth: Int?
        var month: Int?
        var year: Int?

        /// Step 2: the first production a token matches, among those not yet found, claims it.
        mutating func take(_ token: ArraySlice<UInt8>) {
            if time == nil, let parsed = CookieDate.time(in: token) {
                time = parsed
            } else if dayOfMonth == nil, let parsed = CookieDate.leadingNumber(in: token, digits: 1...2) {
                dayOfMonth = parsed
            } else if month == nil, let parsed = CookieDate.month(in: token) {
                month = parsed
            } else if year == nil, let parsed = CookieDate.leadingNumber(in: token, digits: 2...4) {
                year = parsed
            }
        }

        /// Steps 3 to 7.
        var date: Date? {
            guard let time, let dayOfMonth, let month, var year else { return nil }
            switch year {
            case 70...99: year += 1900
            case 0...69: year += 2000
            default: break
            }
            guard year >= 1601, time.hour <= 23, time.minute <= 59, time.second <= 59,
                  (1...CookieDate.daysIn(month: month, year: year)).contains(dayOfMonth)
            else { return nil }
            let days = CookieDate.daysSinceUnixEpoch(year: year, month: month, day: dayOfMonth)
            let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    /// `time = hms-time [ non-digit *OCTET ]`, `hms-time = time-field ":" time-field ":" time-field`.
    private static func time(in token: ArraySlice<UInt8>) -> (hour: Int, minute: Int, second: Int)? {
        var rest = token
        guard let hour = timeField(&rest), rest.popFirst() == UInt8(ascii: ":"),
              let minute = timeField(&rest), rest.popFirst() == UInt8(ascii: ":"),
              let second = timeField(&rest)
        else { return nil }
        return (hour, minute, second)
    }

    /// `time-field = 1*2DIGIT`, consumed from the front of `rest`.
    private static func timeField(_ rest: inout ArraySlice<UInt8>) -> Int? {
        let digits = rest.prefix(while: isDigit)
        guard (1...2).contains(digits.count) else { return nil }
        rest = rest.dropFirst(digits.count)
        return number(digits)
    }

    /// `n*mDIGIT [ non-digit *OCTET ]`: the shape of both `day-of-month` and `year`. A longer run
    /// of digits matches neither, so "012" is no day and "31841" no year.
    private static func leadingNumber(in token: ArraySlice<UInt8>, digits allowed: ClosedRange<Int>) -> Int? {
        let digits = token.prefix(while: isDigit)
        guard allowed.contains(digits.count) else { return nil }
        return number(digits)
    }

    private static let monthNames: [[UInt8]] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ].map { Array($0.utf8) }

    /// `month = ( "jan" / … / "dec" ) *OCTET`, case-insensitively; returns 1 to 12.
    private static func month(in token: ArraySlice<UInt8>) -> Int? {
        let prefix = token.prefix(3).map(asciiLowercased)
        return monthNames.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// At most four digits reach here, so the value cannot overflow.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date, by plain arithmetic so that no
    /// calendar or time-zone setting of the process can shift the result.
    private static func daysSinceUnixEpoch(year: Int, month: Int, day: Int) -> Int {
        // Counting years from March puts the leap day last, so each 400-year era has a fixed
        // shape of 146 097 days. Years here are at least 1601, so the era is never negative.
        let marchYear = month <= 2 ? year - 1 : year
        let era = marchYear / 400
        let yearOfEra = marchYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
