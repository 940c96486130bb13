import Foundation
import Testing

@testable import Courier
@testable import CourierWebSocket

/// The read-ahead and its waiters as a value, without sockets: the continuations are strings
/// naming who waits.
@Suite struct WebSocketInboxTests {
    typealias Inbox = WebSocketInbox<String, String, String, String>

    @Test func readsAheadUntilTheBoundThenWaitsForTheReader() {
        var inbox = Inbox()
        for index in 0..<Inbox.maximumMessages {
            #expect(inbox.readerWaits("loop") == .read, "message \(index)")
            _ = inbox.received(.string("\(index)"))
        }
        #expect(inbox.readerWaits("loop") == .wait)
        guard case .deliver("reader", .string("0"), wakingReader: "loop") = inbox.consumerWaits("reader") else {
            Issue.record("the first message did not wake the loop")
            return
        }
    }

    @Test func aTakenMessageIsReleasedWhileOthersWaitBehindIt() {
        let released = Locked(false)
        var inbox = Inbox()
        do {
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 1)
            let data = Data(bytesNoCopy: bytes, count: 64, deallocator: .custom { pointer, _ in
                pointer.deallocate()
                released.withLock { $0 = true }
            })
            _ = inbox.received(.data(data))
        }
        // A slow reader: the next message is read before the first is taken, so the inbox is
        // never empty when the reader takes one.
        _ = inbox.received(.string("behind"))
        do {
            guard case .deliver("reader", .data, wakingReader: nil) = inbox.consumerWaits("reader") else {
                Issue.record("the first message was not delivered")
                return
            }
        }
        #expect(released.withLock { $0 })
    }

    @Test func aMegabyteOfMessagesStopsTheReadingToo() {
        var inbox = Inbox()
        _ = inbox.received(.data(Data(count: Inbox.maximumBytes)))
        #expect(inbox.readerWaits("loop") == .wait)
    }

    @Test func aWaitingReaderGetsTheNextMessageDirectly() {
        var inbox = Inbox()
        #expect(inbox.consumerWaits("reader") == .wait)
        guard case .deliver("reader", .string("hi")) = inbox.received(.string("hi")) else {
            Issue.record("the message was not handed to the waiting reader")
            return
        }
    }

    @Test func heldMessagesComeBeforeTheEnd() {
        var inbox = Inbox()
        _ = inbox.received(.string("last words"))
        guard case .finish(let finish) = inbox.ended(.closed(.goingAway, reason: "", byServer: true)) else {
            Issue.record("the end was not taken")
            return
        }
        #expect(finish.consumer == nil)
        guard case .deliver(_, .string("last words"), _) = inbox.consumerWaits("reader") else {
            Issue.record("the held message was lost")
            return
        }
        guard case .finish("reader", .closed(.goingAway, _, true)) = inbox.consumerWaits("reader") else {
            Issue.record("the end did not follow")
            return
        }
    }

    @Test func theEndResumesEveryWaiter() {
        var inbox = Inbox()
        #expect(inbox.consumerWaits("reader") == .wait)
        guard case .send(let payload) = inbox.pingWaits("ping") else {
            Issue.record("the ping was not sent")
            return
        }
        #expect(payload.count == 8)
        #expect(inbox.endWaits("closer") == false)
        guard case .finish(let finish) = inbox.ended(.failed(URLError(.networkConnectionLost))) else {
            Issue.record("the end was not taken")
            return
        }
        #expect(finish.consumer == "reader")
        #expect(finish.pings == ["ping"])
        #expect(finish.endWaiters == ["closer"])
        #expect(inbox.ended(.failed(URLError(.timedOut))) == .none)
    }

    @Test func aPongAnswersThePingItEchoesOnly() {
        var inbox = Inbox()
        guard case .send(let first) = inbox.pingWaits("first"), case .send(let second) = inbox.pingWaits("second") else {
            Issue.record("the pings were not sent")
            return
        }
        #expect(first != second)
        #expect(inbox.receivedPong([9, 9]) == .none)
        #expect(inbox.receivedPong(second) == .answer("second"))
        #expect(inbox.receivedPong(first) == .answer("first"))
    }

    @Test func closingReadsWhateverTheRoomAndDropsWhatDoesNotFit() {
        var inbox = Inbox()
        for index in 0..<Inbox.maximumMessages { _ = inbox.received(.string("\(index)")) }
        #expect(inbox.readerWaits("loop") == .wait)
        #expect(inbox.clientCloses(.normalClosure, reason: "") == .sendClose(wakingReader: "loop"))
        #expect(inbox.readerWaits("loop") == .read)
        _ = inbox.received(.string("dropped"))
        var delivered: [WebSocket.Message] = []
        while case .deliver(_, let message, _) = inbox.consumerWaits("reader") { delivered.append(message) }
        #expect(delivered.count == Inbox.maximumMessages)
        #expect(!delivered.contains(.string("dropped")))
        #expect(inbox.clientCloses(.normalClosure, reason: "") == .awaitEnd)
    }

    @Test func aSecondReaderIsRefused() {
        var inbox = Inbox()
        #expect(inbox.consumerWaits("first") == .wait)
        #expect(inbox.consumerWaits("second") == .refuse("second"))
        #expect(inbox.consumerCancelled() == "first")
    }
}

extension WebSocketInbox.NextAction: Equatable where Consumer: Equatable, Reader: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.wait, .wait): true
        case (.refuse(let a), .refuse(let b)): a == b
        case (.deliver(let a, let m, let r), .deliver(let b, let n, let s)): a == b && m == n && r == s
        default: false
        }
    }
}
extension WebSocketInbox.EndAction: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        if case .none = lhs, case .none = rhs { return true }
        return false
    }
}
