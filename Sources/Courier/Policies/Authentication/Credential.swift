import Foundation

/// What ``Authentication`` sends in the `Authorization` field, and until when it is good.
///
/// Its description never shows the value, so a credential printed by mistake, or carried in an
/// error, leaks nothing.
public struct Credential: Sendable, Equatable, CustomStringConvertible {
    /// The whole `Authorization` value, scheme included: `Bearer eyJ…`, `Basic …`.
    public var authorization: String
    /// When the server stops accepting it, if known; it is refreshed a little before. A
    /// credential without one (nil) is used until the server rejects it with a 401, and only
    /// then refreshed.
    public var expiration: Date?

    /// A credential sent as `authorization`, good until `expiration` when known, and until the
    /// server rejects it when nil.
    public init(authorization: String, expiration: Date? = nil) {
        self.authorization = authorization
        self.expiration = expiration
    }

    /// A bearer token (RFC 6750): sent as `Bearer <token>`, good until `expiration` when known,
    /// and until the server rejects it when nil.
    public static func bearer(_ token: String, expiration: Date? = nil) -> Credential {
        Credential(authorization: "Bearer \(token)", expiration: expiration)
    }

    /// The scheme alone, never the secret: `Credential(Bearer, expires …)`.
    public var description: String {
        let scheme = authorization.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        let until = expiration.map { ", expires \($0)" } ?? ""
        return "Credential(\(scheme)\(until))"
    }

    /// Whether it expires within `margin` seconds of `now`.
    func expires(within margin: TimeInterval, of now: Date) -> Bool {
        guard let expiration else { return false }
        return expiration.timeIntervalSince(now) <= margin
    }
}
