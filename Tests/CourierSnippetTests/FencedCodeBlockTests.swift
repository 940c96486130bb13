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

    @Test func aBlockMatchesOnlyAWholeFileByteForByte() {
        let source = SnippetSource(path: "Tests/Snippets/A/A.swift", text: "\nimport Courier\n\nfunc f() {}\n")
        #expect(source.module == "A")
        #expect(source.isWhole(["import Courier", "", "func f() {}"]))
        #expect(!source.isWhole(["func f() {}"]))
        #expect(!source.isWhole(["import Courier", "", "func f() {} "]))
        #expect(!source.isWhole(["    import Courier", "", "    func f() {}"]))
        #expect(!source.isWhole([]))
    }

    @Test func aMissingBlockNamesTheClosestSnippetAndTheFirstDifference() {
        let source = SnippetSource(path: "Tests/Snippets/X/X.swift", text: "import Courier\nlet a = 1\nlet b = 2\n")
        let message = DocumentationSnippetTests.notFound(["import Courier", "let a = 1", "let b = 3"], at: "README.md:9", in: [source])
        #expect(message.contains("README.md:9"))
        #expect(message.contains("Tests/Snippets/X/X.swift, whose first 2 lines of code match"))
        #expect(message.contains(#"the block has "let b = 3" where the file has "let b = 2""#))
    }
}
