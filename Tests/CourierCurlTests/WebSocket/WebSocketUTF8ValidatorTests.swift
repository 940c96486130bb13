import Testing
@testable import CourierCurl

/// UTF-8 as Autobahn's cases 6.x check it: valid text split at every byte, and the sequences
/// that must be refused wherever they fall.
@Suite struct WebSocketUTF8ValidatorTests {
    /// Whether `bytes`, given in `pieces`, are whole valid UTF-8.
    private func isValid(_ pieces: [[UInt8]]) -> Bool {
        var validator = WebSocketUTF8Validator()
        for piece in pieces where !validator.validate(piece) { return false }
        return validator.isAtCharacterBoundary
    }

    private static let validTexts = [
        "Hello-µ@ßöäüàá-UTF-8!!",  // Autobahn 6.2
        "κόσμε",
        "\u{0}\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFD}\u{FFFF}\u{10000}\u{10FFFF}",  // the edges of each form
        "€𝄞中文🎉",
        "",
    ]

    @Test(arguments: validTexts)
    func validTextSplitAtEveryByteIsValid(text: String) {
        let bytes = Array(text.utf8)
        #expect(isValid([bytes]))
        for cut in 0...bytes.count {
            #expect(isValid([Array(bytes[..<cut]), Array(bytes[cut...])]), "cut at \(cut)")
        }
        #expect(isValid(bytes.map { [$0] }))
    }

    private static let invalidSequences: [[UInt8]] = [
        [0x80], [0xBF], [0x80, 0x80],  // continuation bytes without a lead
        [0xC0, 0x80], [0xC1, 0xBF],  // overlong two-byte forms
        [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],  // overlong three-byte forms
        [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],  // overlong four-byte forms
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80],  // surrogates, lone and paired
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],  // past U+10FFFF
        [0xFE], [0xFF], [0xFE, 0xFE, 0xFF, 0xFF],
        [0xC2, 0x41], [0xE2, 0x82, 0x41], [0xF0, 0x9F, 0x98, 0x41],  // a character cut by ASCII
        // Autobahn 6.3.1: "κόσμε" followed by a surrogate, then "edited".
        [0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65, 0x64, 0x69, 0x74, 0x65, 0x64],
    ]

    @Test(arguments: invalidSequences)
    func invalidSequencesAreRefusedWhereverTheyAreSplit(bytes: [UInt8]) {
        let surrounded = Array("ok ".utf8) + bytes + Array(" ok".utf8)
        #expect(!isValid([surrounded]))
        for cut in 0...surrounded.count {
            #expect(!isValid([Array(surrounded[..<cut]), Array(surrounded[cut...])]), "cut at \(cut)")
        }
    }

    @Test func aCharacterCutShortAtTheEndIsNotWhole() {
        for truncated: [UInt8] in [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98]] {
            var validator = WebSocketUTF8Validator()
            // Valid so far, since more may come, but not a whole text.
            let valid = validator.validate(Array("a".utf8) + truncated)
            #expect(valid)
            #expect(!validator.isAtCharacterBoundary)
        }
    }

    @Test func theFirstBadByteFailsEveryPieceAfterIt() {
        var validator = WebSocketUTF8Validator()
        let results = [validator.validate([0x61]), validator.validate([0xFF]), validator.validate([0x61])]
        #expect(results == [true, false, false])
        #expect(!validator.isAtCharacterBoundary)
    }

    /// Random byte strings, mostly lead and continuation bytes, judged as the standard library's
    /// strict decoding judges them, whole and split at random.
    @Test func agreesWithTheStandardLibraryOnRandomBytes() {
        var generator = SeededGenerator(seed: 6455)
        let alphabet: [UInt8] = [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF,
                                 0xF0, 0xF1, 0xF4, 0xF5, 0xFF]
        var validCount = 0
        for _ in 0..<5000 {
            let length = Int.random(in: 0...6, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            if expected { validCount += 1 }
            let cut = Int.random(in: 0...length, using: &generator)
            #expect(isValid([bytes]) == expected, "\(bytes)")
            #expect(isValid([Array(bytes[..<cut]), Array(bytes[cut...])]) == expected, "\(bytes) cut at \(cut)")
        }
        // Both answers were exercised.
        #expect(validCount > 100 && validCount < 4900)
    }
}
