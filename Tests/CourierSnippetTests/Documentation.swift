import Foundation

/// The package's Markdown documents and its snippet files, read from the source tree.
enum Documentation {
    /// The package root: this file is `Tests/CourierSnippetTests/Documentation.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folder of the snippet modules, one folder each.
    static let snippetFolder = "Tests/Snippets"

    /// The names in `Package.swift`'s `snippetModules`, the list its snippet targets are made from.
    static func snippetModulesDeclared() throws -> [String] {
        let manifest = try text(of: "Package.swift")
        guard let start = manifest.range(of: "let snippetModules = ["),
              let end = manifest.range(of: "]", range: start.upperBound..<manifest.endIndex)
        else { return [] }
        return manifest[start.upperBound..<end.lowerBound]
            .split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// `README.md` and every article of every DocC catalog under `Sources/`, as paths relative to
    /// the root, sorted.
    static func documentPaths() throws -> [String] {
        var paths = ["README.md"]
        let sources = root.appending(path: "Sources")
        for module in try contents(of: sources) {
            for catalog in try contents(of: module) where catalog.pathExtension == "docc" {
                for article in try contents(of: catalog) where article.pathExtension == "md" {
                    paths.append("Sources/\(module.lastPathComponent)/\(catalog.lastPathComponent)/\(article.lastPathComponent)")
                }
            }
        }
        return paths.sorted()
    }

    /// Every `.swift` file under ``snippetFolder``, at any depth.
    static func snippetSources() throws -> [SnippetSource] {
        let folder = root.appending(path: snippetFolder)
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var sources: [SnippetSource] = []
        for case let file as URL in enumerator where file.pathExtension == "swift" {
            let relative = String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            sources.append(SnippetSource(path: relative, text: try String(contentsOf: file, encoding: .utf8)))
        }
        return sources.sorted { $0.path < $1.path }
    }

    /// The text of the document at `path`, relative to the root.
    static func text(of path: String) throws -> String {
        try String(contentsOf: root.appending(path: path), encoding: .utf8)
    }

    private static func contents(of folder: URL) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            return []
        }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
    }
}
