import Testing

/// Proves that the Swift a reader copies from the README or a DocC article compiles.
///
/// The examples live as files under `Tests/Snippets`, in the `ReadmeSnippets` and `DocCSnippets`
/// modules, which `swift build --build-tests` compiles against the current API. These tests tie
/// the documents to those files: every ```swift block of `README.md` and of every
/// `Sources/*/*.docc/*.md` article must appear, line for line, in one snippet file (blank lines
/// around the block and trailing spaces aside; the file may indent the whole block, e.g. inside
/// a function). An edited example that was not also edited in its snippet file fails here; an
/// API change that breaks a snippet fails the build.
///
/// A block that is Swift but no code an app compiles, such as lines of a `Package.swift`, is
/// fenced ```swift no-compile and skipped.
@Suite struct DocumentationSnippetTests {
    @Test func theDocumentsAndSnippetsAreFound() throws {
        let documents = try Documentation.documentPaths()
        #expect(documents.contains("README.md"))
        #expect(documents.contains("Sources/Courier/Courier.docc/Courier.md"))
        #expect(documents.contains("Sources/Courier/Courier.docc/ChoosingATransport.md"))
        #expect(documents.contains("Sources/Courier/Courier.docc/ComingFromTheArticles.md"))
        #expect(FencedCodeBlock.all(in: try Documentation.text(of: "README.md")).contains(where: \.isCompiledSwift))
        #expect(!(try Documentation.snippetSources()).isEmpty)
    }

    @Test(arguments: try Documentation.documentPaths())
    func everySwiftBlockIsACompiledSnippet(document: String) throws {
        let sources = try Documentation.snippetSources()
        let blocks = FencedCodeBlock.all(in: try Documentation.text(of: document)).filter(\.isCompiledSwift)
        for block in blocks {
            let code = block.trimmedLines
            if code.isEmpty {
                Issue.record("\(document):\(block.line): an empty ```swift block")
            } else if !sources.contains(where: { $0.location(of: code) != nil }) {
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
                blocks.contains { source.location(of: $0) != nil },
                "\(source.path) holds no ```swift block of README.md or of a DocC article"
            )
        }
    }

    /// Names the closest snippet and its first differing line, so that a drifted example is
    /// quick to reconcile.
    static func notFound(_ code: ArraySlice<String>, at location: String, in sources: [SnippetSource]) -> String {
        var message = "\(location): this ```swift block is in no file of \(Documentation.snippetFolder), so nothing "
            + "proves that it compiles. Put it there verbatim, or fence it ```swift \(FencedCodeBlock.notCompiledMarker) "
            + "if it is not code for an app."
        var best: (source: SnippetSource, start: Int, matched: Int)?
        for source in sources {
            for start in source.lines.indices {
                let matched = source.prefixMatch(of: code, at: start)
                if matched > (best?.matched ?? 0) { best = (source, start, matched) }
            }
        }
        guard let best else {
            return message + " No snippet file has its first line, \"\(code.first ?? "")\"."
        }
        let differing = code.index(code.startIndex, offsetBy: best.matched)
        let fileLine = best.start + best.matched
        let actual = fileLine < best.source.lines.count ? best.source.lines[fileLine] : "(end of file)"
        message += " Closest: \(best.source.path):\(best.start + 1), which matches \(best.matched) of its "
            + "\(code.count) lines; the block has \"\(code[differing])\" where line \(fileLine + 1) has \"\(actual)\"."
        return message
    }
}
