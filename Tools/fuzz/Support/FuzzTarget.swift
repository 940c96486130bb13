import Foundation

/// One fuzz target: a property over arbitrary bytes, replayed over corpus files by a normal
/// build and handed to libFuzzer by a build with `-DCOURIER_FUZZ -sanitize=fuzzer`.
///
/// The property returns nil when it holds and a sentence saying what broke when it does not, so
/// that a replay can list every failing file and libFuzzer can stop at the first one.
package struct FuzzTarget: Sendable {
    package let name: String
    /// The committed seed corpus, replayed when no path is given.
    package let corpusDirectory: URL
    package let property: @Sendable ([UInt8]) -> String?

    /// `corpusFile` is the calling target's `#filePath`; its corpus lives next to it.
    package init(name: String, corpusFile: String = #filePath, property: @escaping @Sendable ([UInt8]) -> String?) {
        self.name = name
        corpusDirectory = URL(fileURLWithPath: corpusFile).deletingLastPathComponent().appendingPathComponent("corpus")
        self.property = property
    }

    /// Replays, or fuzzes when built for libFuzzer; never returns.
    package func run() -> Never {
        #if COURIER_FUZZ
        runLibFuzzer(self)
        #else
        exit(replay(paths: Array(CommandLine.arguments.dropFirst())))
        #endif
    }

    /// Runs the property on every file under `paths` (the seed corpus when empty) and prints
    /// one line per failure; returns the exit status.
    func replay(paths: [String]) -> Int32 {
        TrapReport.set("\(name): trapped while listing the corpus\n")
        let roots = paths.isEmpty ? [corpusDirectory.path] : paths
        var files: [String] = []
        for root in roots {
            guard let found = Self.files(under: root) else {
                print("\(name): no such file or directory: \(root)")
                return 2
            }
            files += found
        }
        var failures = 0
        for file in files {
            TrapReport.set("\(name): trapped while replaying \(file)\n")
            guard let data = FileManager.default.contents(atPath: file) else {
                print("\(name): cannot read \(file)")
                failures += 1
                continue
            }
            if let problem = property(Array(data)) {
                print("\(name): property failed on \(file): \(problem)")
                // A later trap kills the process before buffered lines reach a pipe.
                fflush(nil)
                failures += 1
            }
        }
        TrapReport.set("\(name): trapped after the replay\n")
        print("\(name): replayed \(files.count) inputs, \(failures) failed")
        return failures == 0 ? 0 : 1
    }

    /// `path` itself when it is a file, else the regular files inside it, sorted so that a
    /// replay always runs in the same order; nil when nothing is there.
    private static func files(under path: String) -> [String]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { (path as NSString).appendingPathComponent($0) }
    }
}
