import CourierParity

/// A field on which the two transports are known to disagree for one case, and why.
///
/// The runner requires the field to differ: when a fix makes the transports agree, the case
/// fails until the record is removed, so PARITY.md never lists a difference that is gone.
struct KnownDifference: Sendable {
    var field: ParityField
    var reason: String
    /// Whether it only follows from another difference of the same case (an echo of a request
    /// that was sent differently); PARITY.md lists only the causes.
    var isConsequence: Bool

    init(_ field: ParityField, _ reason: String) {
        self.field = field
        self.reason = reason
        self.isConsequence = false
    }

    /// A difference that follows from another one of the same case.
    static func following(_ field: ParityField, _ reason: String) -> KnownDifference {
        var difference = KnownDifference(field, reason)
        difference.isConsequence = true
        return difference
    }
}
