import ArgumentParser

/// `courier demo` (also `courier` alone): the README's first command.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Walk through Courier on both transports against an embedded server on 127.0.0.1.",
        discussion: """
            Needs no network beyond loopback and takes about 15 seconds.
            Exit codes: 0 every step behaved as described; 1 at least one did not; 23 stdout could not be written.
            """
    )

    func run() async throws {
        let passed = await Demo().run()
        if !passed { throw ExitCode(1) }
    }
}
