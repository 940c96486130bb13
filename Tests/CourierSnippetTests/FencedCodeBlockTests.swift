import Testing

@Suite struct FencedCodeBlockTests {
    @Test func findsBlocksWithTheirInfoStringAndLine() {
        let markdown = """
            # Title

            ```swift
            let a = 1
            ```

            ```sh
            swift build
            ```

            ```swift no-compile
            .package(url: "x", from: "1.0.0"),
            ```
            """
        let blocks = FencedCodeBlock.all(in: markdown)
        #expect(blocks == [
            FencedCodeBlock(infoString: "swift", lines: ["let a = 1"], line: 3),
            FencedCodeBlock(infoString: "sh", lines: ["swift build"], line: 7),
            FencedCodeBlock(infoString: "swift no-compile", lines: [#".package(url: "x", from: "1.0.0"),"#], line: 11),
        ])
        #expect(blocks.map(\.isCompiledSwift) == [true, false, false])
    }

    @Test func aLongerFenceHoldsAShorterOneAndTildesWork() {
        let markdown = [
            "````swift", "let fence = \"```\"", "```", "````",
            "~~~ swift", "let b = 2", "~~~",
        ].joined(separator: "\n")
        let blocks = FencedCodeBlock.all(in: markdown)
        #expect(blocks.map(\.lines) == [["let fence = \"```\"", "```"], ["let b = 2"]])
        #expect(blocks.allSatisfy { $0.isCompiledSwift })
    }

    @Test func aBlockLeftOpenRunsToTheEnd() {
        let blocks = FencedCodeBlock.all(in: "```swift\nlet a = 1\n")
        #expect(blocks.map(\.lines) == [["let a = 1", ""]])
    }

    @Test func removesTheFenceIndentationOfABlockInAList() {
        let markdown = """
            - An item:

              ```swift
              func f() {
                  g()
              }
              ```
            """
        #expect(FencedCodeBlock.all(in: markdown).map(\.lines) == [["func f() {", "    g()", "}"]])
    }

    @Test func trimsBlankLinesAroundTheCode() {
        let block = FencedCodeBlock(infoString: "swift", lines: ["", "let a = 1", "", "let b = 2", "  "], line: 1)
        #expect(Array(block.trimmedLines) == ["let a = 1", "", "let b = 2"])
    }

    @Test func aBlockIsFoundVerbatimOrUnderOneSharedIndentation() {
        let text = "import Courier\n\nfunc example() async {\n    let a = 1\n\n    print(a)   \n}\n"
        let source = SnippetSource(path: "S.swift", text: text)
        #expect(source.location(of: ["import Courier"]) == 0)
        #expect(source.location(of: ["let a = 1", "", "print(a)"]) == 3)
        #expect(source.location(of: ["let a = 1", "print(a)"]) == nil)
        #expect(source.location(of: ["let a = 2"]) == nil)
        #expect(source.location(of: ["let a = 1", "", "  print(a)"]) == nil)
        #expect(source.location(of: ["ample() async {"]) == nil)
    }

    @Test func aMissingBlockNamesTheClosestSnippetAndTheFirstDifference() {
        let source = SnippetSource(path: "Tests/Snippets/X.swift", text: "import Courier\nlet a = 1\nlet b = 2\n")
        let message = DocumentationSnippetTests.notFound(["import Courier", "let a = 1", "let b = 3"], at: "README.md:9", in: [source])
        #expect(message.contains("README.md:9"))
        #expect(message.contains("Tests/Snippets/X.swift:1, which matches 2 of its 3 lines"))
        #expect(message.contains(#"the block has "let b = 3" where line 3 has "let b = 2""#))
    }
}
