import Testing
@testable import CourierCurl

/// When a streamed body's gathered piece waits for more reads and when it goes to the reader.
@Suite struct CurlStreamedBodyTests {
    @Test func aFullReadWithMoreInTheSocketKeepsGathering() {
        #expect(CurlStreamedBody.keepsGatheredPiece(
            atTurnEnd: true, receivedThisTurn: true, lastReadFilledBuffer: true, socketHoldsMore: true
        ))
    }

    @Test(arguments: [
        // A short read: the socket was drained.
        (true, true, false, true),
        // An empty socket: nothing more is on its way yet.
        (true, true, true, false),
        // A turn that brought this transfer nothing (other streams on the connection).
        (true, false, true, true),
        // Not the end of a turn: the transfer completes.
        (false, true, true, true),
    ])
    func anythingElseHandsThePieceOver(_ atTurnEnd: Bool, _ received: Bool, _ filled: Bool, _ more: Bool) {
        #expect(!CurlStreamedBody.keepsGatheredPiece(
            atTurnEnd: atTurnEnd, receivedThisTurn: received, lastReadFilledBuffer: filled, socketHoldsMore: more
        ))
    }

    @Test func theSocketIsAskedOnlyWhenTheRestHolds() {
        var asked = 0
        _ = CurlStreamedBody.keepsGatheredPiece(
            atTurnEnd: true, receivedThisTurn: true, lastReadFilledBuffer: false,
            socketHoldsMore: { asked += 1; return true }()
        )
        _ = CurlStreamedBody.keepsGatheredPiece(
            atTurnEnd: true, receivedThisTurn: true, lastReadFilledBuffer: true,
            socketHoldsMore: { asked += 1; return true }()
        )
        #expect(asked == 1)
    }
}
