import Testing
@testable import CourierCurl

@Suite struct CurlPrivateSocketsTests {
    private let read = CurlSocketRegistry.Interest(readable: true, writable: false)
    private let write = CurlSocketRegistry.Interest(readable: false, writable: true)

    @Test func aFirstRequestAddsTheSocketUnderItsOwner() {
        var sockets = CurlPrivateSockets<String>()
        #expect(sockets.isEmpty)
        #expect(sockets.update(socket: 7, owner: "a", to: .write) == .add(write))
        #expect(sockets.owner(of: 7) == "a")
        #expect(sockets.interest(of: 7) == write)
        #expect(!sockets.isEmpty)
    }

    @Test func aChangedRequestModifiesItAndTheSameOneDoesNothing() {
        var sockets = CurlPrivateSockets<String>()
        _ = sockets.update(socket: 7, owner: "a", to: .write)
        #expect(sockets.update(socket: 7, owner: "a", to: .read) == .modify(read))
        #expect(sockets.update(socket: 7, owner: "a", to: .read) == .none)
    }

    /// Unlike the loop's own sockets, one that libcurl gives up leaves the set at once.
    @Test func aRemovedOrUnwantedSocketLeavesTheSet() {
        var sockets = CurlPrivateSockets<String>()
        _ = sockets.update(socket: 7, owner: "a", to: .read)
        #expect(sockets.update(socket: 7, owner: "a", to: .remove) == .remove)
        #expect(sockets.owner(of: 7) == nil)
        #expect(sockets.update(socket: 7, owner: "a", to: .remove) == .none)
        _ = sockets.update(socket: 8, owner: "a", to: .read)
        #expect(sockets.update(socket: 8, owner: "a", to: .none) == .remove)
        #expect(sockets.isEmpty)
    }

    /// A number another multi handle had (it was closed and reused) now belongs to the new one.
    @Test func aNumberReusedByAnotherOwnerChangesHands() {
        var sockets = CurlPrivateSockets<String>()
        _ = sockets.update(socket: 7, owner: "a", to: .read)
        #expect(sockets.update(socket: 7, owner: "b", to: .read) == .modify(read))
        #expect(sockets.owner(of: 7) == "b")
    }

    @Test func detachingAnOwnerTakesOutItsSocketsOnly() {
        var sockets = CurlPrivateSockets<String>()
        _ = sockets.update(socket: 7, owner: "a", to: .read)
        _ = sockets.update(socket: 8, owner: "a", to: .write)
        _ = sockets.update(socket: 9, owner: "b", to: .read)
        #expect(Set(sockets.removeAll(of: "a")) == [7, 8])
        #expect(sockets.count == 1)
        #expect(sockets.owner(of: 9) == "b")
    }
}
