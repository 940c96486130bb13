import ArgumentParser
import Foundation

/// One `-H` argument, read with curl's three forms.
///
/// - `Name: value` sends the field.
/// - `Name;` sends it with an empty value. A bare `Name:` cannot mean that, because curl
///   gives it another meaning.
/// - `Name:` sends nothing under that name and drops the field the tool would add itself
///   (`Content-Type` from `-d`, `Accept` from `--json`). A field the transport adds
///   (`User-Agent`, `Accept-Encoding`) stays: a `URLRequest` can set a field or leave it to
///   the transport, but it cannot remove one.
struct HeaderArgument: Equatable {
    enum Action: Equatable {
        case send(value: String)
        case remove
    }

    var name: String
    var action: Action

    init(_ argument: String) throws {
        let form = "needs the form 'Name: value', 'Name;' for an empty value or 'Name:' to drop it"
        if let colon = argument.firstIndex(of: ":") {
            name = argument[..<colon].trimmingCharacters(in: .whitespaces)
            let value = argument[argument.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            action = value.isEmpty ? .remove : .send(value: value)
        } else if let semicolon = argument.firstIndex(of: ";"),
                  argument[argument.index(after: semicolon)...].allSatisfy(\.isWhitespace) {
            name = argument[..<semicolon].trimmingCharacters(in: .whitespaces)
            action = .send(value: "")
        } else {
            throw ValidationError("header \(argument.debugDescription) \(form)")
        }
        guard !name.isEmpty else { throw ValidationError("header \(argument.debugDescription) has no name") }
    }

    /// The request's header fields: `defaults` (what the tool sets on its own) overlaid with
    /// `arguments`, in the order given.
    ///
    /// A `URLRequest` holds one value per name, so repeated names are joined as RFC 9110 §5.3
    /// combines field lines: in order, with ", " and under the first spelling given. `Cookie`
    /// is joined with "; " instead (RFC 6265 §5.4), because its pairs are not a comma list.
    /// An empty value next to others is left out: an empty list element means nothing (RFC
    /// 9110 §5.6.1), and `, a` would confuse a server that reads the field as one value.
    ///
    /// Any argument naming a field, `Name:` included, replaces the default of that name,
    /// as curl's custom headers replace its own.
    static func fields(_ arguments: [HeaderArgument], over defaults: [String: String]) -> [String: String] {
        let named = Set(arguments.map { $0.name.lowercased() })
        var fields = defaults.filter { !named.contains($0.key.lowercased()) }
        var joined: [(name: String, values: [String])] = []
        for argument in arguments {
            guard case .send(let value) = argument.action else { continue }
            if let index = joined.firstIndex(where: { $0.name.caseInsensitiveCompare(argument.name) == .orderedSame }) {
                joined[index].values.append(value)
            } else {
                joined.append((argument.name, [value]))
            }
        }
        for (name, values) in joined {
            let separator = name.caseInsensitiveCompare("Cookie") == .orderedSame ? "; " : ", "
            fields[name] = values.filter { !$0.isEmpty }.joined(separator: separator)
        }
        return fields
    }
}
