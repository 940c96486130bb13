import ArgumentParser
import CourierTestServer
import Foundation

/// `courier serve`: Courier's test server, with its normal and hostile routes, on loopback, for
/// trying a client against it by hand or from a script that measures one.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run Courier's test server on 127.0.0.1 until interrupted.",
        discussion: """
            Prints the server's base URL as the first line on stdout, then serves until the \
            process is interrupted or stdin reaches its end. Routes include echoes (/get, \
            /anything), redirects, bodies, and misbehaving servers (stalls, endless bodies, \
            compression bombs, malformed heads); see CourierTestServer.

            Exit codes: 0 stopped; 1 the server could not start; 64 usage error.
            """
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int = 0

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
    }

    func run() async throws {
        let server: TestServer
        do {
            server = try await TestServer.start(port: port)
        } catch {
            Terminal.errorLine("serve: could not listen on 127.0.0.1:\(port): \(error)")
            throw ExitCode(1)
        }
        Terminal.writeOut(Data("\(server.url("/").absoluteString)\n".utf8))
        // Reading stdin to its end is how a parent that holds the pipe says "stop".
        await Task.detached {
            while !FileHandle.standardInput.availableData.isEmpty {}
        }.value
        try? await server.shutdown()
    }
}
