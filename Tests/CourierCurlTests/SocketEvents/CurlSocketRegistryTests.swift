import Testing
@testable import CourierCurl

@Suite struct CurlSocketRegistryTests {
    private let read = CurlSocketRegistry.Interest(readable: true, writable: false)
    private let write = CurlSocketRegistry.Interest(readable: false, writable: true)
    private let both = CurlSocketRegistry.Interest(readable: true, writable: true)

    @Test func aFirstRequestAddsTheSocket() {
        var registry = CurlSocketRegistry()
        #expect(registry.update(socket: 7, to: .write) == .add(write))
        #expect(registry.interest(of: 7) == write)
        #expect(registry.count == 1)
    }

    @Test func aChangedRequestModifiesItAndTheSameOneDoesNothing() {
        var registry = CurlSocketRegistry()
        _ = registry.update(socket: 7, to: .write)
        #expect(registry.update(socket: 7, to: .read) == .modify(read))
        #expect(registry.update(socket: 7, to: .read) == .none)
        #expect(registry.update(socket: 7, to: .readWrite) == .modify(both))
    }

    @Test func removingForgetsTheSocketAndASecondRemovalDoesNothing() {
        var registry = CurlSocketRegistry()
        _ = registry.update(socket: 7, to: .read)
        #expect(registry.update(socket: 7, to: .remove) == .remove)
        #expect(registry.interest(of: 7) == nil)
        #expect(registry.update(socket: 7, to: .remove) == .none)
        // The number can come back for another connection: it is new again.
        #expect(registry.update(socket: 7, to: .read) == .add(read))
    }

    @Test func noInterestTakesAWatchedSocketOutOfTheSet() {
        // A paused transfer's socket: watched with no events, epoll would still report its
        // hang-up and wake the thread for a transfer nobody can act on.
        var registry = CurlSocketRegistry()
        _ = registry.update(socket: 7, to: .read)
        #expect(registry.update(socket: 7, to: .none) == .remove)
        #expect(registry.update(socket: 7, to: .none) == .none)
        #expect(registry.update(socket: 7, to: .read) == .add(read))
    }

    @Test func socketsAreTrackedApart() {
        var registry = CurlSocketRegistry()
        #expect(registry.update(socket: 7, to: .read) == .add(read))
        #expect(registry.update(socket: 8, to: .read) == .add(read))
        #expect(registry.update(socket: 7, to: .remove) == .remove)
        #expect(registry.interest(of: 8) == read)
        registry.removeAll()
        #expect(registry.count == 0)
    }

    @Test func libcurlsCodesMapToRequests() {
        #expect(Curl.SocketInterest(what: 0) == .none)
        #expect(Curl.SocketInterest(what: 1) == .read)
        #expect(Curl.SocketInterest(what: 2) == .write)
        #expect(Curl.SocketInterest(what: 3) == .readWrite)
        #expect(Curl.SocketInterest(what: 4) == .remove)
        #expect(Curl.SocketInterest(what: 99) == .none)
    }
}
