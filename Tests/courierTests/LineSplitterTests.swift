import Foundation
import Testing
@testable import courier

/// `courier ws`'s lines: the same whatever the pieces standard input arrives in.
@Suite struct LineSplitterTests {
    static let input = Data("one\ntwo\r\n\nκόσμε\r\nlast".utf8)
    static let lines = ["one", "two", "", "κόσμε", "last"].map { Data($0.utf8) }

    @Test func wholeInput() {
        var splitter = LineSplitter()
        let lines = splitter.append(Self.input) + [splitter.finish()].compactMap { $0 }
        #expect(lines == Self.lines)
    }

    /// Every cut, a CR and its LF, and a character's UTF-8 bytes included.
    @Test func inEveryTwoPieces() {
        for cut in 0...Self.input.count {
            var splitter = LineSplitter()
            var lines = splitter.append(Self.input.prefix(cut))
            lines += splitter.append(Self.input.dropFirst(cut))
            lines += [splitter.finish()].compactMap { $0 }
            #expect(lines == Self.lines, "cut at \(cut)")
        }
    }

    @Test func byteByByte() {
        var splitter = LineSplitter()
        var lines: [Data] = []
        for byte in Self.input { lines += splitter.append(Data([byte])) }
        lines += [splitter.finish()].compactMap { $0 }
        #expect(lines == Self.lines)
    }

    /// An input ending in a line end has no empty last line; a CR without an LF is data.
    @Test func theEnd() {
        var splitter = LineSplitter()
        #expect(splitter.append(Data("a\n".utf8)) == [Data("a".utf8)])
        #expect(splitter.finish() == nil)
        #expect(splitter.append(Data("b\r".utf8)) == [])
        #expect(splitter.finish() == Data("b\r".utf8))
    }
}
