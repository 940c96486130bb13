/// A `text/event-stream` that went past the size a reader allowed.
///
/// A server that never ends a line, or never ends an event, would otherwise make the reader keep
/// every byte it sends; past ``maximumBytes`` the stream fails instead.
public struct ServerSentEventsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went past the limit. New codes may be added, so a `switch` over them needs a
    /// `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case lineTooLong
            case eventTooLarge
        }

        private let value: Value

        /// One line went past the limit before its line end.
        public static let lineTooLong = Code(value: .lineTooLong)

        /// The `data` fields of one event went past the limit before the blank line that ends it.
        public static let eventTooLarge = Code(value: .eventTooLarge)

        public var description: String {
            switch value {
            case .lineTooLong: "lineTooLong"
            case .eventTooLarge: "eventTooLarge"
            }
        }
    }

    /// What went past the limit.
    public var code: Code

    /// The limit, in bytes.
    public var maximumBytes: Int

    /// Creates an error for `code` past `maximumBytes`.
    public init(code: Code, maximumBytes: Int) {
        self.code = code
        self.maximumBytes = maximumBytes
    }

    public var description: String {
        switch code {
        case .lineTooLong: "a line of the event stream exceeds the limit of \(maximumBytes) bytes"
        default: "an event of the event stream exceeds the limit of \(maximumBytes) bytes"
        }
    }
}
