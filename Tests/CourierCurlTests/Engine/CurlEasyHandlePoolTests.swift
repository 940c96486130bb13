import Testing
@testable import CourierCurl

/// The easy handle pool on its own: real handles, no transfer and no socket.
@Suite struct CurlEasyHandlePoolTests {
    @Test func handlesGivenBackAreKeptUntilTheSurplusIsLetGo() throws {
        var pool = CurlEasyHandlePool(configuration: CurlTransport.Configuration(), maximumIdle: 2)
        let handles = try (0..<5).map { _ in try pool.take() }
        #expect(pool.live == 5)
        for handle in handles { #expect(pool.give(handle) == nil) }
        // A burst's handles all wait for the next one, beyond the idle maximum.
        #expect(pool.idleCount == 5)
        #expect(pool.hasSurplus)
        let reused = try pool.take()
        #expect(reused === handles[4], "the most recently used handle goes first")
        #expect(pool.live == 5)
        pool.give(reused)
        pool.letSurplusGo()
        #expect(pool.idleCount == 2)
        #expect(pool.live == 2)
        #expect(!pool.hasSurplus)
        // The most recently used stay.
        #expect(try pool.take() === handles[4])
    }

    @Test func aHandleNotKeptIsHandedBackUncounted() throws {
        var pool = CurlEasyHandlePool(configuration: CurlTransport.Configuration(), maximumIdle: 2)
        let handle = try pool.take()
        #expect(pool.give(handle, keep: false) === handle)
        #expect(pool.live == 0)
        #expect(pool.idleCount == 0)
    }
}
