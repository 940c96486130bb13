import ArgumentParser
import Foundation

/// The `courier` command: a demo of the library, a curl-like client, a parity report and a
/// load generator, each on either of Courier's transports.
///
/// The type is not called `Courier` because that is the library module's name.
@main
struct CourierTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier",
        abstract: "Courier's command-line tool: demo, request, parity and bench on URLSession or libcurl.",
        discussion: """
            A failed write to stdout (a closed pipe, a full disk) ends any subcommand with exit \
            status 23, as curl does.
            """,
        subcommands: [DemoCommand.self, RequestCommand.self, ParityCommand.self, BenchCommand.self, ServeCommand.self],
        // `courier` alone runs the demo, the README's first command.
        defaultSubcommand: DemoCommand.self
    )

    /// ArgumentParser's entry point, once a write to a closed pipe can no longer kill the process.
    static func main() async {
        FileDescriptorOutput.ignoreBrokenPipeSignal()
        await main(nil)
    }
}
