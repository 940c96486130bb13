// Function composition in the vocabulary of "Functional networking in Swift": small functions
// (endpoint builders, request modifiers, a `Networking`, decoders) combined into one.
// Everything is `@Sendable` because a `Networking` is, and unapplied references to global
// functions and static methods are inferred `@Sendable` in Swift 6.

/// Partial application: fixes the argument of `closure`, giving a function of no arguments.
///
/// ```swift
/// let loadProfile = combine(profileRequest, with: transport.networking)
/// let (data, response) = try await loadProfile()
/// ```
public func combine<A: Sendable, B>(
    _ value: A,
    with closure: @escaping @Sendable (A) -> B
) -> @Sendable () -> B {
    { closure(value) }
}

/// Partial application of an async throwing function, such as a ``Networking``.
public func combine<A: Sendable, B>(
    _ value: A,
    with closure: @escaping @Sendable (A) async throws -> B
) -> @Sendable () async throws -> B {
    { try await closure(value) }
}

/// Chains `inner` into `outer`: the result of `inner` is passed to `outer`.
public func chain<A, B, C>(
    _ inner: @escaping @Sendable (A) -> B,
    to outer: @escaping @Sendable (B) -> C
) -> @Sendable (A) -> C {
    { outer(inner($0)) }
}

/// Chains `inner` into a curried instance method, such as `Future<Data>.decoded`: the result
/// of `inner` is the instance the method is called on.
///
/// ```swift
/// let loadUser = chain(fetchUserData, to: Future<Data>.decoded)   // (User.ID) -> Future<User>
/// ```
public func chain<A, B, C>(
    _ inner: @escaping @Sendable (A) -> B,
    to outer: @escaping @Sendable (B) -> () -> C
) -> @Sendable (A) -> C {
    { outer(inner($0))() }
}

/// Chains async throwing steps, e.g. an endpoint builder into a ``Networking``; synchronous
/// functions convert implicitly.
///
/// ```swift
/// let fetchUser = chain(UserAPI.request(for:), to: transport.networking)   // (User.ID) async throws -> (Data, URLResponse)
/// ```
public func chain<A, B, C>(
    _ inner: @escaping @Sendable (A) async throws -> B,
    to outer: @escaping @Sendable (B) async throws -> C
) -> @Sendable (A) async throws -> C {
    { try await outer(try await inner($0)) }
}
