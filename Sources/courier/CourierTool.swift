import ArgumentParser
import Courier
import CourierCurl
import Foundation

/// The `courier` command: a demo of the library, a curl-like client, a parity report and a
/// load generator, each on either of Courier's transports.
///
/// The type is not called `Courier` because that is the library module's name.
@main
struct CourierTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier",
        abstract: "Courier's command-line tool: demo, request, ws, parity and bench on URLSession or libcurl.",
        discussion: """
            A usage error (unknown option, missing or malformed argument, bad URL) is one line \
            on stderr, `courier: <message>`, and exit status 64; `courier request` and \
            `courier ws` exit with curl's codes for their failures, a bad URL included (see \
            `courier help request` and `courier help ws`). A failed write to stdout (a closed \
            pipe, a full disk) ends any subcommand with exit status 23, as curl does.
            """,
        // With libcurl's version, which decides much of what the curl transport can do.
        version: "courier \(courierVersion) (libcurl \(CurlTransport.libcurlVersion))",
        subcommands: [
            DemoCommand.self, RequestCommand.self, WebSocketCommand.self, ParityCommand.self, BenchCommand.self, ServeCommand.self,
            StreamProbeCommand.self, CacheProbeCommand.self,
        ],
        // `courier` alone runs the demo, the README's first command.
        defaultSubcommand: DemoCommand.self
    )

    /// ArgumentParser's own entry point, but with the tool's output rules: its `exit(withError:)`
    /// prints the usage block under every usage error and writes through stdio.
    static func main() async {
        FileDescriptorOutput.ignoreBrokenPipeSignal()
        do {
            var command = try await asyncParseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(reporting: error)
        }
    }

    /// Help goes to stdout with status 0; anything else is at most one line on stderr, with
    /// ArgumentParser's status for it (64 for usage errors, or the `ExitCode` a command threw).
    private static func exit(reporting error: any Error) -> Never {
        let status = exitCode(for: error)
        let text = message(for: error)
        if status.isSuccess {
            Terminal.line(text)
        } else if !text.isEmpty {
            Terminal.errorLine(text)
        }
        Foundation.exit(status.rawValue)
    }
}
