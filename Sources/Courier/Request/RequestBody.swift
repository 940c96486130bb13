import Foundation

/// The body of a `POST`, `PUT`, `PATCH` or custom request, and its content type.
///
/// JSON bodies are encoded when the request is built, with the encoder of the ``APIClient``
/// that sends them, so one client-wide `JSONEncoder` configuration (dates, key strategy)
/// applies to every request.
///
/// Two bodies are equal when they have the same ``contentType`` and the same bytes, a JSON body
/// encoded for the comparison by a `JSONEncoder` whose only setting is `.sortedKeys` (so the
/// order of a dictionary's keys does not matter). Two bodies that fail to encode are equal when
/// they fail with the same ``RequestError``.
public struct RequestBody: Sendable, Equatable {
    /// The `Content-Type` set on the request unless its headers already name one.
    public var contentType: String?
    private let encode: @Sendable (JSONEncoder) throws -> Data

    private init(contentType: String?, encode: @escaping @Sendable (JSONEncoder) throws -> Data) {
        self.contentType = contentType
        self.encode = encode
    }

    /// Raw bytes, sent as given.
    public static func data(_ data: Data, contentType: String? = nil) -> RequestBody {
        RequestBody(contentType: contentType) { _ in data }
    }

    /// UTF-8 text.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(contentType: contentType) { _ in Data(text.utf8) }
    }

    /// Any `Encodable` value as JSON, with `Content-Type: application/json`.
    public static func json<Value: Encodable & Sendable>(_ value: Value) -> RequestBody {
        RequestBody(contentType: "application/json") { encoder in try encoder.encode(value) }
    }

    /// A JSON object from a dictionary, as WireKit builds its bodies:
    /// `.json(["title": "Test Todo", "completed": true] as [String: Any])`.
    ///
    /// The dictionary is serialized at once by `JSONSerialization`, with sorted keys; the
    /// ``APIClient``'s encoder does not apply. Values must be what `JSONSerialization` accepts
    /// (strings, numbers, booleans, `NSNull`, arrays and dictionaries of those); any other value
    /// fails the request with ``RequestError/bodyEncodingFailed(description:)`` when it is built.
    /// An `Encodable` type with ``json(_:)-(Value)`` keeps the body's shape checked by the
    /// compiler.
    public static func json(_ object: [String: Any]) -> RequestBody {
        let encoded: Result<Data, DictionaryEncodingError>
        if JSONSerialization.isValidJSONObject(object) {
            // Checked first: Darwin's JSONSerialization raises an Objective-C exception, which
            // no `catch` stops, for an object it cannot serialize.
            encoded = Result { try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) }
                .mapError { DictionaryEncodingError(description: String(describing: $0)) }
        } else {
            encoded = .failure(DictionaryEncodingError(
                description: "the dictionary holds a value JSONSerialization cannot write (only strings, numbers, booleans, NSNull, arrays and dictionaries)"
            ))
        }
        return RequestBody(contentType: "application/json") { _ in try encoded.get() }
    }

    /// An HTML form, `application/x-www-form-urlencoded`, encoded as ``Endpoint`` encodes queries.
    public static func form(_ fields: [URLQueryItem]) -> RequestBody {
        RequestBody(contentType: "application/x-www-form-urlencoded") { _ in
            Data(PercentEncoding.query(fields).utf8)
        }
    }

    /// The body's bytes, encoded with `encoder` when the body is JSON.
    package func data(using encoder: JSONEncoder = JSONEncoder()) throws(RequestError) -> Data {
        do {
            return try encode(encoder)
        } catch {
            throw .bodyEncodingFailed(description: String(describing: error))
        }
    }

    public static func == (lhs: RequestBody, rhs: RequestBody) -> Bool {
        lhs.contentType == rhs.contentType && lhs.comparedBytes == rhs.comparedBytes
    }

    /// The bytes `==` compares: encoded once per comparison, with sorted keys so that two equal
    /// dictionaries compare equal whatever order they hold their keys in.
    private var comparedBytes: Result<Data, RequestError> {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Result { () throws(RequestError) in try data(using: encoder) }
    }
}

/// Why a dictionary body could not be serialized; its description is the whole message.
private struct DictionaryEncodingError: Error, CustomStringConvertible {
    var description: String
}
