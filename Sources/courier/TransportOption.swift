import Foundation
import ArgumentParser
import CourierCurl

// `--transport curl|urlsession`: parsed by `TransportKind(name:)`; an unknown value is a usage error
// (exit 64) whose message, ArgumentParser's, names the accepted values from `allValueStrings`.
extension TransportKind: ExpressibleByArgument {
    public init?(argument: String) {
        try? self.init(name: argument, source: "--transport")
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension TransportKind {
    /// The transport a command uses when `--transport` is absent: `COURIER_TRANSPORT`, else the
    /// library default. A misspelt variable is a usage error rather than a silent fallback.
    static func fromEnvironment() throws -> TransportKind {
        do {
            return try TransportKind(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The name printed in tables.
    var displayName: String {
        switch self {
        case .urlSession: "URLSession"
        case .curl: "curl"
        }
    }
}
