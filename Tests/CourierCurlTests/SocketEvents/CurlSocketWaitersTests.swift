import Testing
@testable import CourierCurl

/// The bookkeeping of sockets the loop watches for others than libcurl, as a value with names
/// for waiters: what epoll is to watch after each change, and who is woken.
@Suite struct CurlSocketWaitersTests {
    private typealias Interest = CurlSocketRegistry.Interest
    private static let readable = Interest(readable: true, writable: false)
    private static let writable = Interest(readable: false, writable: true)
    private static let both = Interest(readable: true, writable: true)

    @Test func aReaderAndAWriterShareASocket() throws {
        var waiters = CurlSocketWaiters<String>()
        let addedReader = waiters.add("reader", socket: 7, writing: false)
        let reader = try #require(addedReader)
        #expect(reader.before == nil)
        #expect(reader.after == Self.readable)
        let addedWriter = waiters.add("writer", socket: 7, writing: true)
        let writer = try #require(addedWriter)
        #expect(writer.before == Self.readable)
        #expect(writer.after == Self.both)

        let readyToRead = waiters.take(socket: 7, readable: true, writable: false)
        #expect(readyToRead.waiters == ["reader"])
        #expect(readyToRead.remaining == Self.writable)
        let readyToWrite = waiters.take(socket: 7, readable: false, writable: true)
        #expect(readyToWrite.waiters == ["writer"])
        #expect(readyToWrite.remaining == nil)
        #expect(!waiters.contains(7))
    }

    @Test func aSecondWaiterTheSameWayIsRefused() {
        var waiters = CurlSocketWaiters<String>()
        let first = waiters.add("first", socket: 3, writing: false)
        let second = waiters.add("second", socket: 3, writing: false)
        #expect(first != nil)
        #expect(second == nil)
        let woken = waiters.take(socket: 3, readable: true, writable: true)
        #expect(woken.waiters == ["first"])
    }

    @Test func aFailureWakesBothWays() {
        var waiters = CurlSocketWaiters<String>()
        _ = waiters.add("reader", socket: 5, writing: false)
        _ = waiters.add("writer", socket: 5, writing: true)
        let woken = waiters.take(socket: 5, readable: true, writable: true)
        #expect(Set(woken.waiters) == ["reader", "writer"])
        #expect(woken.remaining == nil)
    }

    @Test func aDeadlineEndsOnlyItsOwnWait() throws {
        var waiters = CurlSocketWaiters<String>()
        let added = waiters.add("reader", socket: 9, writing: false)
        let reader = try #require(added)
        _ = waiters.add("writer", socket: 9, writing: true)
        let timedOut = waiters.take(id: reader.id, socket: 9)
        #expect(timedOut.waiter == "reader")
        #expect(timedOut.remaining == Self.writable)
        // The same deadline again, once its wait has ended, finds nothing.
        let again = waiters.take(id: reader.id, socket: 9)
        #expect(again.waiter == nil)
    }

    @Test func anEventForASocketNobodyWaitsOnWakesNobody() {
        var waiters = CurlSocketWaiters<String>()
        let woken = waiters.take(socket: 11, readable: true, writable: true)
        #expect(woken.waiters.isEmpty)
        #expect(woken.remaining == nil)
    }

    @Test func shuttingDownTakesEveryWaiter() {
        var waiters = CurlSocketWaiters<String>()
        _ = waiters.add("a", socket: 1, writing: false)
        _ = waiters.add("b", socket: 1, writing: true)
        _ = waiters.add("c", socket: 2, writing: false)
        let taken = waiters.takeAll()
        #expect(Set(taken) == ["a", "b", "c"])
        #expect(!waiters.contains(1))
        #expect(!waiters.contains(2))
    }
}
