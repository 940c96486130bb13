import Testing
@testable import Courier

@Suite struct FIFOQueueTests {
    @Test func elementsComeOutInTheOrderTheyWentIn() {
        var queue = FIFOQueue<Int>()
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
        for value in 1...3 { queue.append(value) }
        #expect(queue.count == 3)
        #expect(queue.first == 1)
        #expect(queue.popFirst() == 1)
        #expect(Array(queue.queued) == [2, 3])
        #expect(queue.popFirst() == 2)
        #expect(queue.popFirst() == 3)
        #expect(queue.isEmpty)
        #expect(queue.first == nil)
    }

    /// Appends and takes interleaved across many compactions keep the order and the count.
    @Test func theOrderHoldsAcrossCompactions() {
        var queue = FIFOQueue<Int>()
        var next = 0
        var taken: [Int] = []
        for _ in 0..<20 {
            for _ in 0..<150 {
                queue.append(next)
                next += 1
            }
            for _ in 0..<100 { taken.append(queue.popFirst() ?? -1) }
            #expect(queue.count == next - taken.count)
            #expect(Array(queue.queued) == Array(taken.count..<next))
        }
        while let value = queue.popFirst() { taken.append(value) }
        #expect(taken == Array(0..<next))
    }

    @Test func aTakenElementIsLetGoAtOnce() {
        final class Tracked {}
        var queue = FIFOQueue<Tracked>()
        weak var first: Tracked?
        do {
            let tracked = Tracked()
            first = tracked
            queue.append(tracked)
            queue.append(Tracked())
        }
        _ = queue.popFirst()
        #expect(first == nil)
        #expect(queue.count == 1)
    }

    @Test func removingAllEmptiesTheQueue() {
        var queue = FIFOQueue<String>()
        queue.append("a")
        queue.append("b")
        _ = queue.popFirst()
        queue.removeAll()
        #expect(queue.isEmpty)
        queue.append("c")
        #expect(queue.popFirst() == "c")
    }
}
