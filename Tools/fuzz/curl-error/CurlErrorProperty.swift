#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierCurl
import CourierFuzzSupport
import Foundation

/// Input: 8 bytes of CURLcode (any Int, not only libcurl's), 4 bytes of errno, then the text
/// libcurl's error buffer held. The mapping must be total and the message never empty; the
/// errno may change the answer only for a failed connect, since handles are reused and
/// CURLINFO_OS_ERRNO survives from an earlier transfer.
@Sendable func curlErrorProperty(_ bytes: [UInt8]) -> String? {
    var input = FuzzInput(bytes)
    let code = Int(truncatingIfNeeded: input.integer(byteCount: 8))
    let osErrno = Int32(truncatingIfNeeded: input.integer(byteCount: 4))
    let bufferText = String(decoding: input.rest(), as: UTF8.self)

    let mapped = CurlError.urlErrorCode(curlCode: code, osErrno: osErrno)
    let withoutErrno = CurlError.urlErrorCode(curlCode: code, osErrno: 0)
    let couldntConnect = CurlError.urlErrorCode(curlCode: 7, osErrno: 0) == .cannotConnectToHost && code == 7
    if !couldntConnect, mapped != withoutErrno {
        return "CURLcode \(code) maps to \(mapped.rawValue) with errno \(osErrno) but \(withoutErrno.rawValue) with none"
    }
    if couldntConnect, (mapped == .timedOut) != (osErrno == ETIMEDOUT) {
        return "a failed connect with errno \(osErrno) maps to \(mapped.rawValue)"
    }
    if !(-3007...(-1)).contains(mapped.rawValue) {
        return "CURLcode \(code) maps to \(mapped.rawValue), which is no URLError code"
    }
    if (1...127).contains(code) == false, mapped != .unknown {
        return "CURLcode \(code), which libcurl never returns, maps to \(mapped.rawValue) rather than .unknown"
    }

    // What the engine does when the error buffer is empty: libcurl's generic text.
    let generic = Curl.message(forCode: code)
    let fromGeneric = CurlError.message(forCode: code, libcurlSaid: generic)
    if fromGeneric.isEmpty {
        return "CURLcode \(code) has an empty message (libcurl's text: \(generic.debugDescription))"
    }
    // The engine passes the buffer only when it is not empty; whatever it holds must survive.
    if !bufferText.isEmpty {
        let message = CurlError.message(forCode: code, libcurlSaid: bufferText)
        if !message.contains(bufferText) {
            return "CURLcode \(code): the message \(message.debugDescription) lost libcurl's text \(bufferText.debugDescription)"
        }
    }

    let error = CurlError(kind: .transfer, curlCode: code, message: fromGeneric)
    let urlError = error.urlError(code: mapped, url: URL(string: "http://127.0.0.1/"))
    if urlError.code != mapped || CurlError.underlying(of: urlError) != error {
        return "CURLcode \(code): the URLError does not carry its code and CurlError"
    }
    if urlError.localizedDescription.isEmpty {
        return "CURLcode \(code): the URLError has no description"
    }
    return nil
}
