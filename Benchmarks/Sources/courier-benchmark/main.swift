#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import AsyncHTTPClient
import CAllocationCounter
import Courier
import CourierCurl
import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

// One client, one workload, one process: `Benchmarks/run` starts this once per cell so that
// getrusage and the peak RSS belong to that client alone, then calls `report` to print the table.
//
//   courier-benchmark measure CLIENT BASE-URL WORKLOAD [SECONDS]   one JSON record on stdout
//   courier-benchmark report RESULTS.jsonl STARTUP.txt               the table
//   courier-benchmark scale-report RESULTS.jsonl                     the table of `run --scale`
//   courier-benchmark libcurl                                        the libcurls this process loaded
//   courier-benchmark websocket CLIENT WS-URL WORKLOAD [SECONDS]     one JSON record (WebSocketMeasure.swift)
//   courier-benchmark websocket-report RESULTS.jsonl                 the tables of `run --websocket`
//   courier-benchmark websocket-server                               the WebSocket rows' server (WebSocketServer.swift)
//
// CLIENT: curl | curl-response | curl-executor | urlsession | ahc. BASE-URL: the nginx that `run` starts. WORKLOAD: see
// `Workload.all`, or scale-WIDTHxCONNECTIONS (`Workload.scaling`); the C program (c/multi-get.c)
// knows the same names and prints the same record.

let arguments = CommandLine.arguments
do {
    switch arguments.dropFirst().first {
    case "measure" where arguments.count >= 5:
        let seconds = arguments.count > 5 ? Double(arguments[5]) ?? 1 : 1
        let record = try await measure(client: arguments[2], base: arguments[3], workloadName: arguments[4], seconds: seconds)
        print(record.jsonLine)
        exit(record.failures == 0 ? 0 : 1)
    case "report" where arguments.count >= 4:
        try printReport(results: arguments[2], startup: arguments[3])
    case "websocket" where arguments.count >= 5:
        let seconds = arguments.count > 5 ? Double(arguments[5]) ?? 1 : 1
        let record = try await measureWebSocket(client: arguments[2], base: arguments[3], workloadName: arguments[4], seconds: seconds)
        print(record.jsonLine)
        exit(record.failures == 0 ? 0 : 1)
    case "websocket-report" where arguments.count >= 3:
        try printWebSocketReport(results: arguments[2])
    case "websocket-server":
        try await serveWebSockets()
    case "scale-report" where arguments.count >= 3:
        try printScaleReport(results: arguments[2])
    case "libcurl":
        // Made first, so FoundationNetworking (URLSession's libcurl) is loaded too.
        _ = URLSession.shared
        for line in loadedLibcurls() { print(line) }
    default:
        FileHandle.standardError.write(Data("""
            usage: courier-benchmark measure curl|curl-response|curl-executor|urlsession|ahc BASE-URL WORKLOAD [SECONDS]
                   courier-benchmark report RESULTS.jsonl STARTUP.txt
                   courier-benchmark scale-report RESULTS.jsonl
                   courier-benchmark libcurl
                   courier-benchmark websocket ws-curl|ws-urlsession|ws-nio WS-URL WORKLOAD [SECONDS]
                   courier-benchmark websocket-report RESULTS.jsonl
                   courier-benchmark websocket-server

            """.utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("courier-benchmark: \(error)\n".utf8))
    exit(1)
}
