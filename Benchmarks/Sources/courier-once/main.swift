#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

// Start-up cost as an app pays it: a process that links only Courier, makes one GET and exits.
// Kept apart from courier-benchmark, whose binary also carries AsyncHTTPClient and SwiftNIO.
//
//   courier-once URL [curl|urlsession]

let arguments = CommandLine.arguments
guard arguments.count > 1, let url = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: courier-once URL [curl|urlsession]\n".utf8))
    exit(2)
}
do {
    let networking: Networking
    if arguments.count > 2, arguments[2] == "urlsession" {
        networking = URLSessionTransport().networking
    } else {
        networking = try CurlTransport().networking
    }
    let (data, response) = try await networking(URLRequest(url: url))
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    FileHandle.standardOutput.write(data)
    exit(status == 200 ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("courier-once: \(error)\n".utf8))
    exit(1)
}
