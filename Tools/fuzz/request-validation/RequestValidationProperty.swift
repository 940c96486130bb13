#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierFuzzSupport
import Foundation

/// Input: a flags byte (method or none, body, timeout), an upload byte (none, or `.data` or
/// `.stream` with or without a length, checked through `validateForSending(uploading:)`), then
/// length-prefixed chunks: the method, then name/value pairs until the input ends. Whatever
/// URLRequest makes of them, an accepted request must put only well-formed bytes on the wire,
/// and a refused one must be refused for a reason it really has.
@Sendable func requestValidationProperty(_ bytes: [UInt8]) -> String? {
    var input = FuzzInput(bytes)
    let flags = input.byte()
    let uploadChoice = input.byte()
    let uploadSize = Int(uploadChoice >> 3)
    let upload: RequestBody? = switch uploadChoice & 7 {
    case 1: .data(Data(repeating: 0x62, count: uploadSize))
    case 2: .stream(AsyncStream<Data> { $0.finish() }, length: Int64(uploadSize))
    case 3: .stream(AsyncStream<Data> { $0.finish() })
    default: nil
    }
    guard let url = URL(string: "http://127.0.0.1:8080/") else { return "the fuzz target's own URL does not parse" }
    var request = URLRequest(url: url)
    let method = String(decoding: input.chunk(), as: UTF8.self)
    if flags & 1 != 0 { request.httpMethod = method }
    if flags & 2 != 0 { request.httpBody = Data(repeating: 0x61, count: Int(flags >> 4)) }
    request.timeoutInterval = [60, 0, -1, .nan, .infinity, 0.5, -0.0, 1e300][Int(flags >> 2) & 7]
    while !input.isAtEnd {
        let name = String(decoding: input.chunk(), as: UTF8.self)
        let value = String(decoding: input.chunk(), as: UTF8.self)
        if input.bool() {
            request.addValue(value, forHTTPHeaderField: name)
        } else {
            request.setValue(value, forHTTPHeaderField: name)
        }
    }
    let fields = request.allHTTPHeaderFields ?? [:]
    // What a hand-set Content-Length must say: the upload's length when there is an upload (nil
    // when unknown), else the httpBody's.
    let bodyLength: Int64? = upload.map(\.length) ?? Int64(request.httpBody?.count ?? 0)
    let context = "method \(request.httpMethod.debugDescription), fields \(fields.debugDescription), body length \(bodyLength.map(String.init) ?? "unknown")"

    let plain = refusal { () throws(RequestError) in try request.validateForSending() }
    let withoutUpload = refusal { () throws(RequestError) in try request.validateForSending(uploading: nil) }
    if plain != withoutUpload {
        return "\(context): validateForSending() says \(plain.debugDescription), with no upload \(withoutUpload.debugDescription)"
    }
    let refused = upload == nil ? plain : refusal { () throws(RequestError) in try request.validateForSending(uploading: upload) }
    if let refused {
        return refusalProblem(refused, request: request, fields: fields, bodyLength: bodyLength, context: context)
    }
    if !(request.timeoutInterval >= 0) {
        return "\(context): accepted a timeout of \(request.timeoutInterval)"
    }
    if let method = request.httpMethod, !Wire.isToken(method) {
        return "\(context): accepted a method that is not a token"
    }
    for (name, value) in fields {
        if !Wire.isToken(name) { return "\(context): accepted the field name \(name.debugDescription)" }
        if let byte = value.utf8.first(where: Wire.isForbiddenInValue) {
            return "\(context): accepted byte 0x\(String(byte, radix: 16)) in the value of \(name.debugDescription)"
        }
        if name.lowercased() == "content-length", let bodyLength,
           value.trimmingCharacters(in: .whitespaces) != String(bodyLength) {
            return "\(context): accepted Content-Length \(value.debugDescription)"
        }
    }
    return nil
}

/// The error `validate` throws, nil when it accepts.
private func refusal(_ validate: () throws(RequestError) -> Void) -> RequestError? {
    do throws(RequestError) {
        try validate()
        return nil
    } catch {
        return error
    }
}

/// A refusal must name a part of the request that is really wrong; the error being a
/// `RequestError` is what `throws(RequestError)` already promises.
private func refusalProblem(
    _ error: RequestError, request: URLRequest, fields: [String: String], bodyLength: Int64?, context: String
) -> String? {
    switch error {
    case .invalidTimeout:
        return request.timeoutInterval >= 0 ? "\(context): refused the timeout \(request.timeoutInterval)" : nil
    case .invalidMethod(let method):
        if method != request.httpMethod { return "\(context): refused the method \(method.debugDescription), not the request's" }
        return Wire.isToken(method) ? "\(context): refused the token method \(method.debugDescription)" : nil
    case .invalidHeader(let name, _):
        guard let value = fields[name] else { return "\(context): refused \(name.debugDescription), which it does not have" }
        let wrongLength = name.lowercased() == "content-length"
            && bodyLength.map { value.trimmingCharacters(in: .whitespaces) != String($0) } == true
        if Wire.isToken(name), !value.utf8.contains(where: Wire.isForbiddenInValue), !wrongLength {
            return "\(context): refused the well-formed field \(name.debugDescription): \(value.debugDescription)"
        }
        return nil
    default:
        return "\(context): refused with \(error), which validation never throws"
    }
}

/// RFC 9110's rules, written again here rather than calling the code under test.
private enum Wire {
    static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)

    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || tokenPunctuation.contains(byte)
        }
    }

    /// CR, LF and NUL split or cut a request; the other controls but HTAB are refused too.
    static func isForbiddenInValue(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }
}
