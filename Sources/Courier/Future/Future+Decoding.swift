import Foundation

extension Future where Value == Data {
    /// Returns a future that decodes this future's data as JSON.
    ///
    /// The type is usually inferred from context, so loading code reads as one line:
    ///
    /// ```swift
    /// func loadProduct(id: Product.ID) -> Future<Product> {
    ///     Future { try await networking(.product(id)).0 }.decoded()
    /// }
    /// ```
    ///
    /// A `DecodingError` fails the returned future; an error from this future passes through.
    /// Decoding runs where observers run (see ``Future``), so decode large payloads from a future
    /// completed off the main thread.
    ///
    /// - Parameters:
    ///   - type: The type to decode; defaults to the type the caller expects.
    ///   - decoder: The decoder to use, for custom date or key strategies.
    public func decoded<T: Decodable & Sendable>(
        as type: T.Type = T.self,
        using decoder: JSONDecoder = JSONDecoder()
    ) -> Future<T> {
        map { data in try decoder.decode(type, from: data) }
    }

    /// ``decoded(as:using:)`` with the type inferred and a default `JSONDecoder`, in the shape of
    /// a curried method so it chains as one step:
    ///
    /// ```swift
    /// let loadProduct: @Sendable (Product.ID) -> Future<Product> = chain(loadData, to: Future<Data>.decoded)
    /// ```
    public func decoded<T: Decodable & Sendable>() -> Future<T> {
        decoded(as: T.self, using: JSONDecoder())
    }
}
