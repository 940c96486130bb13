import Foundation
import Testing
@testable import Courier

/// How a form is laid out on the wire, without sockets: escaping, headers, boundary choice and
/// length.
@Suite struct MultipartLayoutTests {
    /// Boundaries handed out in order, for tests that need to know which one is drawn.
    private final class Boundaries: @unchecked Sendable {
        private var remaining: [String]
        private(set) var drawn = 0
        init(_ boundaries: [String]) { remaining = boundaries }
        func next() -> String {
            drawn += 1
            return remaining.isEmpty ? "exhausted" : remaining.removeFirst()
        }
    }

    private static func layout(_ form: MultipartForm, boundaries: [String] = ["BOUNDARY"], fileSize: Int64 = 0) throws -> MultipartLayout {
        let source = Boundaries(boundaries)
        return try MultipartLayout(form: form, nextBoundary: source.next, fileSize: { _ in fileSize })
    }

    private static func text(_ segment: MultipartLayout.Segment) -> String? {
        if case .bytes(let data) = segment { String(decoding: data, as: UTF8.self) } else { nil }
    }

    @Test func quotesAndLineBreaksArePercentEncodedAsBrowsersDo() {
        #expect(MultipartLayout.escaped("a\"b\r\nc\rd\ne") == "a%22b%0D%0Ac%0Dd%0Ae")
    }

    @Test func everythingElseIsLeftAsItsUTF8() {
        #expect(MultipartLayout.escaped("café ☕️ 100% a;b=c 'x' \\") == "café ☕️ 100% a;b=c 'x' \\")
        let head = try? MultipartLayout.head(of: .text("naïve", "v"))
        #expect(head == Data("Content-Disposition: form-data; name=\"naïve\"\r\n\r\n".utf8))
    }

    @Test func aTextFieldHasNoContentTypeAndAFileHasOctetStreamUnlessGiven() throws {
        let text = try MultipartLayout.head(of: .text("a", "b"))
        #expect(String(decoding: text, as: UTF8.self) == "Content-Disposition: form-data; name=\"a\"\r\n\r\n")
        let file = try MultipartLayout.head(of: .data("f", Data(), filename: "x\".bin"))
        #expect(String(decoding: file, as: UTF8.self)
            == "Content-Disposition: form-data; name=\"f\"; filename=\"x%22.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n")
        let typed = try MultipartLayout.head(of: .file("p", URL(fileURLWithPath: "/tmp/a.png"), contentType: "image/png"))
        #expect(String(decoding: typed, as: UTF8.self)
            == "Content-Disposition: form-data; name=\"p\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n")
    }

    /// What the `courier` tool sends for `-F name=@-`, as curl does: a file name, no type.
    @Test func aFileLeftUnlabelledHasNoContentType() throws {
        var part = MultipartForm.Part.data("f", Data(), filename: "-")
        part.labelsUntypedFile = false
        #expect(String(decoding: try MultipartLayout.head(of: part), as: UTF8.self)
            == "Content-Disposition: form-data; name=\"f\"; filename=\"-\"\r\n\r\n")
        part.contentType = "text/plain"
        #expect(String(decoding: try MultipartLayout.head(of: part), as: UTF8.self)
            == "Content-Disposition: form-data; name=\"f\"; filename=\"-\"\r\nContent-Type: text/plain\r\n\r\n")
    }

    @Test func aContentTypeWithALineBreakIsRefused() {
        #expect(throws: MultipartFormError.invalidContentType(field: "f", value: "text/plain\r\nX-Injected: 1")) {
            try Self.layout(MultipartForm([.data("f", Data(), contentType: "text/plain\r\nX-Injected: 1")]))
        }
    }

    @Test func theBodyIsFramedAsRFC7578SaysWithAFileBetweenByteSegments() throws {
        let form = MultipartForm([
            .text("a", "1"),
            .file("f", URL(fileURLWithPath: "/tmp/data.bin")),
            .data("d", Data("xyz".utf8), filename: "d.txt", contentType: "text/plain"),
        ])
        let layout = try Self.layout(form, fileSize: 7)
        #expect(layout.segments.count == 3)
        #expect(Self.text(layout.segments[0]) == """
            --BOUNDARY\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n\
            --BOUNDARY\r\nContent-Disposition: form-data; name="f"; filename="data.bin"\r\n\
            Content-Type: application/octet-stream\r\n\r\n
            """)
        #expect(layout.segments[1] == .file(URL(fileURLWithPath: "/tmp/data.bin"), size: 7, field: "f"))
        #expect(Self.text(layout.segments[2]) == """
            \r\n--BOUNDARY\r\nContent-Disposition: form-data; name="d"; filename="d.txt"\r\n\
            Content-Type: text/plain\r\n\r\nxyz\r\n--BOUNDARY--\r\n
            """)
        #expect(layout.contentType == "multipart/form-data; boundary=BOUNDARY")
    }

    @Test func theLengthCountsEveryByteAndEachFilesSize() throws {
        let form = MultipartForm([.text("a", "1"), .file("f", URL(fileURLWithPath: "/tmp/x"))])
        let layout = try Self.layout(form, fileSize: 1_000_000)
        let inMemory = layout.segments.reduce(0) { total, segment in
            if case .bytes(let data) = segment { total + data.count } else { total }
        }
        #expect(layout.length == Int64(inMemory) + 1_000_000)
    }

    @Test func aBoundaryFoundInAPartIsReplacedByTheNext() throws {
        let source = Boundaries(["XXXX", "YYYY"])
        let layout = try MultipartLayout(
            form: MultipartForm([.text("a", "before XXXX after")]), nextBoundary: source.next, fileSize: { _ in 0 }
        )
        #expect(layout.boundary == "YYYY")
        #expect(source.drawn == 2)
    }

    @Test func aBoundaryFoundInANameIsReplacedToo() throws {
        let layout = try Self.layout(MultipartForm([.data("XXXX", Data(), filename: "ZZZZ")]), boundaries: ["XXXX", "ZZZZ", "WWWW"])
        #expect(layout.boundary == "WWWW")
    }

    @Test func aFormEveryBoundaryOccursInIsRefusedNotSent() {
        let everything = MultipartForm([.text("a", "exhausted")])
        #expect(throws: RequestError.self) { try Self.layout(everything, boundaries: []) }
    }

    @Test func randomBoundariesAreLettersAndDigitsWithinRFC2046sLimit() {
        let first = MultipartLayout.randomBoundary()
        let second = MultipartLayout.randomBoundary()
        #expect(first != second)
        #expect(first.utf8.count == 51)
        #expect(first.utf8.count <= 70)
        #expect(first.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    @Test func occurrenceIsFoundAtEveryPosition() {
        let pattern = Data("abc".utf8)
        #expect(MultipartLayout.occurs(pattern, in: Data("abc".utf8)))
        #expect(MultipartLayout.occurs(pattern, in: Data("aababc".utf8)))
        #expect(MultipartLayout.occurs(pattern, in: Data("xabcx".utf8)))
        #expect(!MultipartLayout.occurs(pattern, in: Data("ab".utf8)))
        #expect(!MultipartLayout.occurs(pattern, in: Data("abab acb".utf8)))
        #expect(MultipartLayout.occurs(pattern, in: Data("xxabc".utf8).dropFirst(2)))
    }
}
