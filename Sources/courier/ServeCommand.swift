import ArgumentParser
import CourierTestServer
import Dispatch
import Foundation

/// `courier serve`: Courier's test server, with its normal and hostile routes, on loopback, for
/// trying a client against it by hand or from a script that measures one.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run Courier's test server on 127.0.0.1 until interrupted.",
        discussion: """
            Prints the server's base URL as the first line on stdout, then serves until the \
            process gets SIGINT (Ctrl-C) or SIGTERM, when it closes its connections and exits 0. \
            Standard input is not read, so a server started in the background of a script \
            (`courier serve > url.txt &`) runs until it is signalled. Routes include echoes \
            (/get, /anything), redirects, bodies, and misbehaving servers (stalls, endless \
            bodies, compression bombs, malformed heads); see CourierTestServer.

            Exit codes: 0 stopped by a signal; 1 the server could not start; 64 usage error.
            """
    )

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int = 0

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
    }

    func run() async throws {
        // Taken before the server starts, so a signal sent as soon as the URL is printed is
        // not lost to the default action, which would end the process without a shutdown.
        let stop = StopSignals([SIGINT, SIGTERM])
        let server: TestServer
        do {
            server = try await TestServer.start(port: port)
        } catch {
            Terminal.errorLine("serve: could not listen on 127.0.0.1:\(port): \(error)")
            throw ExitCode(1)
        }
        Terminal.writeOut(Data("\(server.url("/").absoluteString)\n".utf8))
        await stop.first()
        try? await server.shutdown()
    }
}

/// Signals turned from their default action (ending the process) into an event to await.
///
/// The process ignores them, so their default action does not run, and a dispatch source per
/// signal reports each one; the sources live as long as this value.
private struct StopSignals {
    private let sources: [any DispatchSourceSignal]
    private let received: AsyncStream<Int32>

    init(_ numbers: [Int32]) {
        let (received, continuation) = AsyncStream<Int32>.makeStream()
        let queue = DispatchQueue(label: "courier.serve.signals")
        sources = numbers.map { number in
            _ = signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        self.received = received
    }

    /// Returns when the first of the signals arrives.
    func first() async {
        for await _ in received { break }
        for source in sources { source.cancel() }
    }
}
