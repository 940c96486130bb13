/// One event of a `text/event-stream`, as the WHATWG HTML specification's "Interpreting an event
/// stream" dispatches it.
public struct ServerSentEvent: Hashable, Sendable {
    /// The event's type: the value of its last `event` field, or `message` when it had none
    /// or an empty one.
    public var type: String

    /// The values of the event's `data` fields, joined with a line feed (U+000A).
    public var data: String

    /// The last event ID when the event was dispatched: set by the last `id` field of this
    /// event or of an earlier one, and kept from one event to the next; empty when none was set.
    public var lastEventID: String

    /// The reconnection time the stream had set by its last `retry` field when the event was
    /// dispatched; `nil` when none was set.
    public var reconnectionTime: Duration?

    /// Creates an event, for tests and for streams made by hand.
    public init(type: String = "message", data: String, lastEventID: String = "", reconnectionTime: Duration? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.reconnectionTime = reconnectionTime
    }
}
