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

    @Test func aRemovedSocketStaysInTheSetUntilItIsWantedAgain() {
        // A keep-alive connection between two transfers: one epoll_ctl when it is reused, none
        // when it is given up.
        var registry = CurlSocketRegistry()
        _ = registry.update(socket: 7, to: .read)
        #expect(registry.update(socket: 7, to: .remove) == .none)
        #expect(registry.interest(of: 7) == nil)
        #expect(registry.count == 1)
        #expect(registry.update(socket: 7, to: .remove) == .none)
        // Modified rather than left alone, though the interest is the same: the number may
        // have been closed, which took it out of the set, and reused for a new connection.
        #expect(registry.update(socket: 7, to: .read) == .modify(read))
        #expect(registry.interest(of: 7) == read)
        #expect(registry.update(socket: 7, to: .read) == .none)
    }

    @Test func anEventOfAnUnwantedSocketTakesItOut() {
        // An idle connection the server closed: its hang-up must not wake the thread forever.
        var registry = CurlSocketRegistry()
        _ = registry.update(socket: 7, to: .read)
        #expect(take(7, from: &registry) == false)
        _ = registry.update(socket: 7, to: .remove)
        #expect(take(7, from: &registry) == true)
        #expect(registry.count == 0)
        #expect(take(7, from: &registry) == false)
        #expect(registry.update(socket: 7, to: .read) == .add(read))
    }

    @Test func noInterestCountsAsUnwanted() {
        // A paused transfer's socket: data arriving for it would wake the thread for a transfer
        // nobody can act on.
        var registry = CurlSocketRegistry()
        _ = registry.update(socket: 7, to: .read)
        #expect(registry.update(socket: 7, to: .none) == .none)
        #expect(registry.interest(of: 7) == nil)
        #expect(take(7, from: &registry) == true)
        #expect(registry.update(socket: 7, to: .read) == .add(read))
    }

    @Test func aSocketNeverWatchedIsNotTakenOrAdded() {
        var registry = CurlSocketRegistry()
        #expect(registry.update(socket: 9, to: .remove) == .none)
        #expect(registry.update(socket: 9, to: .none) == .none)
        #expect(registry.count == 0)
        #expect(take(9, from: &registry) == false)
    }

    @Test func socketsAreTrackedApart() {
        var registry = CurlSocketRegistry()
        #expect(registry.update(socket: 7, to: .read) == .add(read))
        #expect(registry.update(socket: 8, to: .read) == .add(read))
        _ = registry.update(socket: 7, to: .remove)
        #expect(registry.interest(of: 8) == read)
        #expect(take(8, from: &registry) == false)
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

/// ``CurlSocketRegistry/takeUnwanted(_:)`` outside `#expect`, which cannot call a mutating method.
private func take(_ socket: Int32, from registry: inout CurlSocketRegistry) -> Bool {
    registry.takeUnwanted(socket)
}
