/// What a ``WebSocket`` read ahead of its reader, and who waits for what: a value that decides
/// each event and returns the continuations to resume, which the socket resumes outside its lock.
///
/// The read loop asks for room before each read. While the messages held are fewer than
/// ``maximumMessages`` and smaller together than ``maximumBytes`` it reads on; past that it
/// waits for the reader to take one, so a slow reader stops the socket being read, and the
/// server is held back by TCP. Memory is then those bytes and the one message being read.
/// Once the client began the close, the loop reads on whatever the room, to reach the server's
/// close frame, and drops the messages that do not fit.
struct WebSocketInbox<Consumer, Reader, PingWaiter, EndWaiter> {
    static var maximumMessages: Int { 16 }
    static var maximumBytes: Int { 1 << 20 }

    /// How the connection ended.
    enum End {
        /// The close handshake completed: the server's code and reason.
        case closed(WebSocket.CloseCode, reason: String, byServer: Bool)
        case failed(any Error)
    }

    /// The continuations an end resumes, with what each gets.
    struct Finish {
        var consumer: Consumer?
        var reader: Reader?
        var pings: [PingWaiter] = []
        var endWaiters: [EndWaiter] = []
    }

    /// The messages held, oldest first. A taken message leaves the array at once: a reader that
    /// never quite catches up never empties it, and what it took must not stay referenced here.
    private var messages: [WebSocket.Message] = []
    private var bufferedBytes = 0
    private var consumer: Consumer?
    private var reader: Reader?
    private var pings: [(payload: [UInt8], waiter: PingWaiter)] = []
    private var endWaiters: [EndWaiter] = []
    private var nextPing: UInt64 = 0
    /// The close the client began, if it did: its code and reason.
    private(set) var clientClose: (code: WebSocket.CloseCode, reason: String)?
    private(set) var end: End?

    init() {}

    private var heldCount: Int { messages.count }

    private var hasRoom: Bool {
        clientClose != nil || (heldCount < Self.maximumMessages && bufferedBytes < Self.maximumBytes)
    }

    // MARK: The read loop

    enum ReaderAction {
        /// Read the next event.
        case read
        /// Stop reading: the connection ended.
        case stop
        /// Wait for room; the continuation was kept.
        case wait
    }

    mutating func readerWaits(_ waiter: Reader) -> ReaderAction {
        if end != nil { return .stop }
        guard !hasRoom else { return .read }
        reader = waiter
        return .wait
    }

    enum ReceiveAction {
        case deliver(Consumer, WebSocket.Message)
        case none
    }

    mutating func received(_ message: WebSocket.Message) -> ReceiveAction {
        if let waiting = consumer {
            consumer = nil
            return .deliver(waiting, message)
        }
        // Only a closing socket reads without room; what does not fit then is dropped.
        guard heldCount < Self.maximumMessages, bufferedBytes < Self.maximumBytes else { return .none }
        messages.append(message)
        bufferedBytes += message.byteCount
        return .none
    }

    enum PongAction {
        case answer(PingWaiter)
        case none
    }

    mutating func receivedPong(_ payload: [UInt8]) -> PongAction {
        guard let index = pings.firstIndex(where: { $0.payload == payload }) else { return .none }
        // A pong answers the ping it echoes and every one sent before it (RFC 6455 §5.5.3 lets
        // a server answer only the latest), so the ones before are answered too, later.
        return .answer(pings.remove(at: index).waiter)
    }

    enum EndAction {
        case finish(Finish)
        case none
    }

    mutating func ended(_ ending: End) -> EndAction {
        guard end == nil else { return .none }
        end = ending
        var finish = Finish(consumer: nil, reader: reader, pings: pings.map(\.waiter), endWaiters: endWaiters)
        reader = nil
        pings = []
        endWaiters = []
        // A reader waiting has read everything held: it gets the end now.
        if heldCount == 0 {
            finish.consumer = consumer
            consumer = nil
        }
        return .finish(finish)
    }

    // MARK: The reader of messages

    enum NextAction {
        case deliver(Consumer, WebSocket.Message, wakingReader: Reader?)
        case finish(Consumer, End)
        case wait
        /// Another task already waits for the next message.
        case refuse(Consumer)
    }

    mutating func consumerWaits(_ waiter: Consumer) -> NextAction {
        guard consumer == nil else { return .refuse(waiter) }
        if heldCount > 0 {
            // At most maximumMessages move up: cheaper than the message's own delivery.
            let message = messages.removeFirst()
            bufferedBytes -= message.byteCount
            let wake = hasRoom ? reader : nil
            if wake != nil { reader = nil }
            return .deliver(waiter, message, wakingReader: wake)
        }
        if let end { return .finish(waiter, end) }
        consumer = waiter
        return .wait
    }

    /// The waiting reader's task was cancelled: the continuation to resume with the cancellation.
    mutating func consumerCancelled() -> Consumer? {
        defer { consumer = nil }
        return consumer
    }

    // MARK: Pings and the close

    enum PingAction {
        /// Send a ping with this payload; its waiter is kept until the pong.
        case send([UInt8])
        case fail(PingWaiter, End?)
    }

    mutating func pingWaits(_ waiter: PingWaiter) -> PingAction {
        if end != nil || clientClose != nil { return .fail(waiter, end) }
        nextPing &+= 1
        let payload = withUnsafeBytes(of: nextPing.bigEndian) { Array($0) }
        pings.append((payload, waiter))
        return .send(payload)
    }

    /// The ping with `payload` could not be sent: its waiter, to fail.
    mutating func pingFailed(_ payload: [UInt8]) -> PingWaiter? {
        guard let index = pings.firstIndex(where: { $0.payload == payload }) else { return nil }
        return pings.remove(at: index).waiter
    }

    enum CloseAction {
        /// Send the close frame, and wake the read loop, which now reads whatever the room.
        case sendClose(wakingReader: Reader?)
        /// A close is under way or the connection ended: only wait for its end.
        case awaitEnd
    }

    mutating func clientCloses(_ code: WebSocket.CloseCode, reason: String) -> CloseAction {
        guard clientClose == nil, end == nil else { return .awaitEnd }
        clientClose = (code, reason)
        defer { reader = nil }
        return .sendClose(wakingReader: reader)
    }

    /// Whether the end has come; otherwise `waiter` is kept until it does.
    mutating func endWaits(_ waiter: EndWaiter) -> Bool {
        guard end == nil else { return true }
        endWaiters.append(waiter)
        return false
    }
}

// Compared in tests, with strings for continuations.
extension WebSocketInbox.ReceiveAction: Equatable where Consumer: Equatable {}
extension WebSocketInbox.PongAction: Equatable where PingWaiter: Equatable {}
extension WebSocketInbox.CloseAction: Equatable where Reader: Equatable {}
