import Courier

/// Courier's `Future`, under a name Combine does not use.
///
/// Combine and OpenCombine declare a `Future` of their own, so in a file that imports one of them
/// and Courier, `Future<Data>` is ambiguous and the compiler picks neither ("specialized with
/// too few type parameters" is Combine's two-parameter `Future` answering). Write
/// `CourierFuture<Data>`, or `Courier.Future<Data>`; both name the same type.
///
/// ```swift
/// let user = CourierFuture<User> { try await client.send(Request("users/42")) }
/// let publisher = user.publisher   // AnyPublisher<User, any Error>
/// ```
public typealias CourierFuture<Value: Sendable> = Courier.Future<Value>
