#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension APIError.Kind: Equatable {
    /// Whether two kinds name the same cause, so that `error.kind == .notFound` reads as it
    /// should.
    ///
    /// Status kinds compare their status codes and ``invalidRequest(_:)`` its ``RequestError``.
    /// The two kinds that carry an error no type makes `Equatable` compare what a caller can act
    /// on:
    ///
    /// - ``decoding(_:)``: the same `DecodingError` case, the same type (for `typeMismatch` and
    ///   `valueNotFound`) or missing key (for `keyNotFound`), the same coding path, key by key,
    ///   and the same `debugDescription`. The context's `underlyingError` is not compared.
    /// - ``transport(_:)``: two `URLError`s are equal when their codes are, whatever their
    ///   `userInfo` (the failing URL, an underlying libcurl error). Two errors of another type
    ///   that is `Equatable` compare with its `==`; errors of any other type are equal when
    ///   they have the same type and the same `String(describing:)`, so two
    ///   `CancellationError()`s are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.badRequest, .badRequest), (.unauthorized, .unauthorized), (.forbidden, .forbidden),
            (.notFound, .notFound), (.serverError, .serverError), (.notHTTP, .notHTTP):
            return true
        case let (.otherClientError(left), .otherClientError(right)),
            let (.otherServerError(left), .otherServerError(right)),
            let (.unexpectedStatus(left), .unexpectedStatus(right)):
            return left == right
        case let (.decoding(left), .decoding(right)):
            return DecodingErrorComparison.equal(left, right)
        case let (.invalidRequest(left), .invalidRequest(right)):
            return left == right
        case let (.transport(left), .transport(right)):
            return TransportErrorComparison.equal(left, right)
        // One line per case rather than `default`, so that a new case cannot compare unequal to
        // itself without the compiler asking how it compares.
        case (.badRequest, _), (.unauthorized, _), (.forbidden, _), (.notFound, _),
            (.otherClientError, _), (.serverError, _), (.otherServerError, _), (.unexpectedStatus, _),
            (.decoding, _), (.invalidRequest, _), (.transport, _), (.notHTTP, _):
            return false
        }
    }
}

/// How ``APIError/Kind/decoding(_:)`` payloads compare; see ``APIError/Kind/==(_:_:)``.
enum DecodingErrorComparison {
    static func equal(_ left: DecodingError, _ right: DecodingError) -> Bool {
        switch (left, right) {
        case let (.typeMismatch(leftType, leftContext), .typeMismatch(rightType, rightContext)),
            let (.valueNotFound(leftType, leftContext), .valueNotFound(rightType, rightContext)):
            return leftType == rightType && equal(leftContext, rightContext)
        case let (.keyNotFound(leftKey, leftContext), .keyNotFound(rightKey, rightContext)):
            return equal(leftKey, rightKey) && equal(leftContext, rightContext)
        case let (.dataCorrupted(leftContext), .dataCorrupted(rightContext)):
            return equal(leftContext, rightContext)
        default:
            // Different cases, or a case a later standard library adds.
            return false
        }
    }

    private static func equal(_ left: DecodingError.Context, _ right: DecodingError.Context) -> Bool {
        left.debugDescription == right.debugDescription
            && left.codingPath.count == right.codingPath.count
            && zip(left.codingPath, right.codingPath).allSatisfy { equal($0, $1) }
    }

    private static func equal(_ left: any CodingKey, _ right: any CodingKey) -> Bool {
        left.stringValue == right.stringValue && left.intValue == right.intValue
    }
}

/// How ``APIError/Kind/transport(_:)`` payloads compare; see ``APIError/Kind/==(_:_:)``.
enum TransportErrorComparison {
    static func equal(_ left: any Error, _ right: any Error) -> Bool {
        // Before the Equatable test: URLError is Equatable through NSError, which also compares
        // userInfo, and that holds the failing URL and whatever underlying error a transport
        // attached, which differ between two otherwise identical failures.
        if let left = left as? URLError, let right = right as? URLError {
            return left.code == right.code
        }
        // Through `Any`: with Foundation imported, the compiler warns that a cast from
        // `any Error` to `any Equatable` always succeeds, which at run time it does not.
        if let left = (left as Any) as? any Equatable {
            return left.isEqual(to: right)
        }
        return type(of: left) == type(of: right) && String(describing: left) == String(describing: right)
    }
}

extension Equatable {
    /// `self == other` when `other` has this type; opens an `any Equatable` existential.
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
