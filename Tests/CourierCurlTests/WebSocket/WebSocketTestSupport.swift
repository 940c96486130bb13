@testable import CourierCurl

/// A generator that returns one value forever, so that a mask key is known: `next() as UInt32`
/// is its low 32 bits.
struct RepeatingGenerator: RandomNumberGenerator {
    let value: UInt64

    func next() -> UInt64 { value }
}
