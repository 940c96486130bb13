/// The directives of a `Cache-Control` field (RFC 9111 §5.2), as a request or a response
/// carries them.
///
/// Names are compared without regard to case; a directive given twice counts by its first
/// occurrence (§4.2.1). A value may be a token or a quoted string, whichever the directive's
/// definition asks for, since senders get it wrong both ways (§5.2).
struct CacheControl: Sendable, Equatable {
    /// Each directive's value by lowercased name; nil for a directive without one.
    private var directives: [String: String?] = [:]

    /// The directives of every `Cache-Control` field line, joined with commas as lists are.
    init(_ fieldValue: String?) {
        guard let fieldValue else { return }
        for member in Self.members(of: fieldValue) {
            let name: Substring
            var value: String?
            if let equals = member.firstIndex(of: "=") {
                name = member[..<equals]
                value = Self.unquoted(member[member.index(after: equals)...].trimmingSpaces)
            } else {
                name = member
            }
            let key = name.trimmingSpaces.lowercased()
            if !key.isEmpty, directives[key] == nil { directives[key] = .some(value) }
        }
    }

    /// Whether the directive `name` (lowercase) is present, with or without a value.
    func contains(_ name: String) -> Bool {
        directives[name] != nil
    }

    /// The value of the directive `name` (lowercase) as delta-seconds.
    func seconds(_ name: String) -> Seconds {
        guard let value = directives[name] else { return .absent }
        guard let value, !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return .invalid }
        // §1.2.2: a value too large to represent is taken as 2^31.
        return .valid(Int(value).map { min($0, 1 << 31) } ?? 1 << 31)
    }

    /// Whether the directive `name` is present with no value: `max-stale` alone accepts a
    /// response however stale.
    func hasNoValue(_ name: String) -> Bool {
        directives[name] == .some(nil)
    }

    /// A delta-seconds directive as found.
    enum Seconds: Equatable {
        case absent
        case valid(Int)
        /// Present, but not a non-negative integer.
        case invalid

        var value: Int? {
            if case .valid(let seconds) = self { seconds } else { nil }
        }
    }

    /// The comma-separated members, commas inside quoted strings kept.
    private static func members(of text: String) -> [Substring] {
        var members: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                members.append(text[start..<index].trimmingSpaces)
                start = text.index(after: index)
            }
        }
        members.append(text[start...].trimmingSpaces)
        return members.filter { !$0.isEmpty }
    }

    private static func unquoted(_ value: Substring) -> String {
        guard value.count >= 2, value.first == "\"", value.last == "\"" else { return String(value) }
        var result = ""
        var escaped = false
        for character in value.dropFirst().dropLast() {
            if !escaped && character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }
}

extension Substring {
    /// Without the spaces and tabs around it (OWS).
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
