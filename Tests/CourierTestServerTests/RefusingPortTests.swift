import CourierTestServer
import Foundation
import NIOCore
import NIOPosix
import Testing

@Suite struct RefusingPortTests {
    @Test func connectionsAreRefused() async throws {
        let refusing = try await RefusingPort.open()
        await #expect(throws: (any Error).self) {
            try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: refusing.port)
                .get()
                .close()
        }
        try await refusing.close()
    }

    /// What a closed server's port cannot promise: no server can take the port while it is held.
    @Test func noServerCanListenOnThePortWhileItIsHeld() async throws {
        let refusing = try await RefusingPort.open()
        await #expect(throws: (any Error).self) {
            try await TestServer.start(port: refusing.port).shutdown()
        }
        try await refusing.close()
    }

    @Test func urlsNameThePort() async throws {
        let refusing = try await RefusingPort.open()
        #expect(refusing.baseURL.absoluteString == "http://127.0.0.1:\(refusing.port)")
        #expect(refusing.url("/get?a=1").absoluteString == "http://127.0.0.1:\(refusing.port)/get?a=1")
        try await refusing.close()
        try await refusing.close()
    }
}
