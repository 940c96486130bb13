#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation

// The `courier` tool. For now it has one command, `demo`, which walks through Courier's layers
// against an embedded server on 127.0.0.1; the full tool (request, parity, bench) replaces this
// argument handling with swift-argument-parser.

let usage = """
    usage: courier demo     walk through Courier against an embedded local server
           courier --help   show this text
    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "demo":
    let passed = await Demo().run()
    exit(passed ? 0 : 1)
case "--help", "-h", "help":
    print(usage)
default:
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(64)  // EX_USAGE
}
