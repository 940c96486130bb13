import Foundation
import Testing

/// Proves that the Swift a reader copies from the README or a DocC article compiles pasted alone.
///
/// Every ```swift block of `README.md` and of every `Sources/*/*.docc/*.md` article is a whole
/// file, `Tests/Snippets/<Name>/<Name>.swift`, and each of those files is a module of its own in
/// `Package.swift`, which `swift build --build-tests` compiles against the current API. A module
/// sees only what its one file imports, so a block that leans on another block's declarations or
/// on an import it does not have breaks the build, as it would break an app it was pasted into.
/// These tests tie the documents to those modules: each block must be its file byte for byte
/// (nothing around it, no indentation), each file must be quoted, and each folder must be a
/// module of `Package.swift`'s `snippetModules`.
///
/// A block that is Swift but no code an app compiles, such as a `Package.swift`, is fenced
/// ```swift no-compile and skipped; the manifest's package names are checked on their own.
@Suite struct DocumentationSnippetTests {
    @Test func theDocumentsAndSnippetsAreFound() throws {
        let documents = try Documentation.documentPaths()
        #expect(documents.contains("README.md"))
        #expect(documents.contains("Sources/Courier/Courier.docc/Courier.md"))
        #expect(documents.contains("Sources/Courier/Courier.docc/ChoosingATransport.md"))
        #expect(documents.contains("Sources/CourierCurl/CourierCurl.docc/CourierCurl.md"))
        #expect(FencedCodeBlock.all(in: try Documentation.text(of: "README.md")).contains(where: \.isCompiledSwift))
        #expect(!(try Documentation.snippetSources()).isEmpty)
    }

    @Test(arguments: try Documentation.documentPaths())
    func everySwiftBlockIsAWholeSnippetFile(document: String) throws {
        let sources = try Documentation.snippetSources()
        let blocks = FencedCodeBlock.all(in: try Documentation.text(of: document)).filter(\.isCompiledSwift)
        for block in blocks {
            let code = block.trimmedLines
            if code.isEmpty {
                Issue.record("\(document):\(block.line): an empty ```swift block")
            } else if !sources.contains(where: { $0.isWhole(code) }) {
                Issue.record(Comment(rawValue: Self.notFound(code, at: "\(document):\(block.line)", in: sources)))
            }
        }
    }

    /// A snippet file that no document quotes any more is an example nobody reads, kept
    /// compiling for nothing.
    @Test func everySnippetFileIsQuotedByADocument() throws {
        let blocks = try Documentation.documentPaths().flatMap { document in
            FencedCodeBlock.all(in: try Documentation.text(of: document)).filter(\.isCompiledSwift).map(\.trimmedLines)
        }
        for source in try Documentation.snippetSources() {
            #expect(
                blocks.contains { source.isWhole($0) },
                "\(source.path) is no ```swift block of README.md or of a DocC article, whole and byte for byte"
            )
        }
    }

    /// One file per folder, named for it, and one module per folder: what makes "compiles"
    /// mean "compiles alone".
    @Test func everySnippetFileIsAModuleOfItsOwn() throws {
        let sources = try Documentation.snippetSources()
        for source in sources {
            #expect(
                source.path == "\(Documentation.snippetFolder)/\(source.module)/\(source.module).swift",
                "\(source.path): a snippet is Tests/Snippets/<Name>/<Name>.swift, alone in its folder"
            )
        }
        let declared = Set(try Documentation.snippetModulesDeclared())
        let folders = Set(sources.map(\.module))
        #expect(folders.subtracting(declared).isEmpty, "not in Package.swift's snippetModules: \(folders.subtracting(declared).sorted())")
        #expect(declared.subtracting(folders).isEmpty, "in snippetModules with no snippet file: \(declared.subtracting(folders).sorted())")
    }

    /// The README's manifest: the `package:` of each `.product(name:package:)` must be the
    /// identity SwiftPM gives a dependency, the last path component of its URL or path without
    /// `.git`, or an app that copies it fails with "unknown package".
    @Test func theManifestNamesEachPackageByItsIdentity() throws {
        let manifests = FencedCodeBlock.all(in: try Documentation.text(of: "README.md"))
            .filter { $0.infoWords.first == "swift" && !$0.isCompiledSwift }
            .filter { $0.lines.contains { $0.contains(".package(") } }
        #expect(!manifests.isEmpty, "README.md shows no Package.swift")
        for manifest in manifests {
            let text = manifest.lines.joined(separator: "\n")
            #expect(manifest.trimmedLines.first?.hasPrefix("// swift-tools-version:") == true, "README.md:\(manifest.line): a whole Package.swift")
            let identities = Set(Self.arguments(named: "url", in: text).compactMap(Self.identity)
                + Self.arguments(named: "path", in: text).compactMap(Self.identity))
            let named = Self.arguments(named: "package", in: text)
            #expect(!named.isEmpty)
            for name in named {
                #expect(identities.contains(name), "README.md:\(manifest.line): package: \"\(name)\" is not the identity of any dependency (\(identities.sorted()))")
            }
        }
    }

    @Test func identitiesAreTheLastPathComponentWithoutGit() {
        #expect(Self.identity("https://github.com/someone/Courier.git") == "Courier")
        #expect(Self.identity("../main") == "main")
        #expect(Self.identity("https://example.com/x/courier/") == "courier")
    }

    /// SwiftPM's identity of a dependency at `location`.
    static func identity(_ location: String) -> String? {
        var last = location.split(separator: "/").last.map(String.init)
        if last?.hasSuffix(".git") == true { last?.removeLast(4) }
        return last
    }

    /// Every string literal passed as `label:` in `text`.
    static func arguments(named label: String, in text: String) -> [String] {
        text.components(separatedBy: "\(label): \"").dropFirst().compactMap { $0.split(separator: "\"", maxSplits: 1).first.map(String.init) }
    }

    /// Names the closest snippet and its first differing line, so that a drifted example is
    /// quick to reconcile.
    static func notFound(_ code: ArraySlice<String>, at location: String, in sources: [SnippetSource]) -> String {
        let message = "\(location): this ```swift block is no whole file of \(Documentation.snippetFolder), so nothing "
            + "proves that it compiles alone. Put it in Tests/Snippets/<Name>/<Name>.swift, byte for byte, and add <Name> "
            + "to snippetModules in Package.swift; or fence it ```swift \(FencedCodeBlock.notCompiledMarker) if it is not code for an app."
        guard let best = sources.max(by: { $0.leadingMatch(of: code) < $1.leadingMatch(of: code) }),
              best.leadingMatch(of: code) > 0
        else {
            return message + " No snippet file begins with its first line, \"\(code.first ?? "")\"."
        }
        let matched = best.leadingMatch(of: code)
        let fileCode = best.code
        let blockLine = matched < code.count ? "\"\(code[code.startIndex + matched])\"" : "(its end)"
        let fileLine = matched < fileCode.count ? "\"\(fileCode[fileCode.startIndex + matched])\"" : "(its end)"
        return message + " Closest: \(best.path), whose first \(matched) lines of code match; then the block has "
            + "\(blockLine) where the file has \(fileLine)."
    }
}
