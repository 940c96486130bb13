import ArgumentParser
import Courier
import Foundation

/// One `-F` argument, read with curl's syntax.
///
/// - `name=value` a text field; `name=<path` a text field holding the file's bytes (no file
///   name is sent); `name=@path` the file, sent with its file name.
/// - After the content, `;type=MIME` and `;filename=NAME` (a file name in double quotes may
///   hold `;` and `,`, with `\"` and `\\` for a quote and a backslash); a path or a value may be
///   quoted the same way. As in curl, a `;` part that is not one of these is skipped with a
///   warning, except after `type=`, where it belongs to the type (`type=text/plain; charset=utf-8`).
/// - `-` as the path reads stdin.
///
/// Not supported, and refused as a usage error rather than sent otherwise than curl would:
/// several files in one field (`name=@a,b`), `;headers=`, `;encoder=` and nested parts
/// (`name=(`).
struct FormArgument: Equatable {
    enum Content: Equatable {
        case text(String)
        case file(path: String)
        case textFromFile(path: String)
    }

    var name: String
    var content: Content
    var contentType: String?
    var filename: String?
    /// What curl would warn about and skip.
    var warnings: [String] = []

    init(_ argument: String) throws {
        guard let equals = argument.firstIndex(of: "=") else {
            throw ValidationError("-F \(argument.debugDescription) needs the form name=content, name=@file or name=<file")
        }
        name = String(argument[..<equals])
        guard !name.isEmpty else { throw ValidationError("-F \(argument.debugDescription) has no field name") }
        var rest = Substring(argument[argument.index(after: equals)...])
        switch rest.first {
        case "@":
            rest = rest.dropFirst()
            let path = Self.word(&rest, stoppingAt: ";,")
            if rest.first == "," {
                throw ValidationError("-F \(argument.debugDescription): several files in one field are not supported; give one -F per file (or quote a path holding a comma)")
            }
            content = .file(path: path)
        case "<":
            rest = rest.dropFirst()
            content = .textFromFile(path: Self.word(&rest, stoppingAt: ";"))
        case "(":
            throw ValidationError("-F \(argument.debugDescription): nested multipart parts are not supported")
        default:
            content = .text(Self.word(&rest, stoppingAt: ";"))
        }
        try readParameters(&rest, argument: argument)
        if case .textFromFile = content, filename != nil {
            warnings.append("field file name not allowed here: \(filename ?? "")")
            filename = nil
        }
    }

    /// The `;key=value` parameters after the content.
    private mutating func readParameters(_ rest: inout Substring, argument: String) throws {
        while rest.first == ";" {
            rest = rest.dropFirst().drop(while: \.isWhitespace)
            if rest.hasPrefix("type=") {
                rest = rest.dropFirst(5).drop(while: \.isWhitespace)
                contentType = Self.word(&rest, stoppingAt: ";").trimmingCharacters(in: .whitespaces)
            } else if rest.hasPrefix("filename=") {
                rest = rest.dropFirst(9).drop(while: \.isWhitespace)
                filename = Self.word(&rest, stoppingAt: ";")
            } else if rest.hasPrefix("headers=") || rest.hasPrefix("encoder=") {
                throw ValidationError("-F \(argument.debugDescription): ;headers= and ;encoder= are not supported")
            } else {
                let unknown = Self.word(&rest, stoppingAt: ";")
                if let type = contentType {
                    // curl's reading: what follows a type up to the next known key is the type's.
                    contentType = "\(type); \(unknown)".trimmingCharacters(in: .whitespaces)
                } else if !unknown.isEmpty {
                    warnings.append("skip unknown form field: \(unknown)")
                }
            }
        }
    }

    /// A word from the start of `text`: in double quotes (with `\"` and `\\` escapes) when it
    /// starts with one that is closed, the rest up to a stop character then being dropped;
    /// otherwise everything up to the first stop character. `text` is left at that character.
    private static func word(_ text: inout Substring, stoppingAt stops: String) -> String {
        if text.first == "\"" {
            var word = ""
            var index = text.index(after: text.startIndex)
            while index < text.endIndex {
                let character = text[index]
                if character == "\\", text.index(after: index) < text.endIndex,
                   ["\"", "\\"].contains(text[text.index(after: index)]) {
                    index = text.index(after: index)
                    word.append(text[index])
                } else if character == "\"" {
                    text = text[text.index(after: index)...].drop { !stops.contains($0) }
                    return word
                } else {
                    word.append(character)
                }
                index = text.index(after: index)
            }
            // No closing quote: read as unquoted, as curl does.
        }
        let end = text.firstIndex { stops.contains($0) } ?? text.endIndex
        let word = String(text[..<end])
        text = text[end...]
        return word
    }

    /// The part this argument sends, with ``sentContentType``. A file is read while it is
    /// sent (its size now); stdin, which cannot be, is read whole here.
    func part() throws -> MultipartForm.Part {
        var part: MultipartForm.Part
        switch content {
        case .text(let value):
            guard filename != nil || contentType != nil else { return .text(name, value) }
            part = .data(name, Data(value.utf8), filename: filename)
        case .file("-"):
            part = .data(name, try Self.standardInput(), filename: filename ?? "-")
        case .file(let path):
            part = .file(name, URL(fileURLWithPath: path), filename: filename)
        case .textFromFile("-"):
            part = .data(name, try Self.standardInput())
        case .textFromFile(let path):
            // A file's bytes as a field, streamed as any file is, but with no file name.
            part = MultipartForm.Part(name: name, filename: nil, contentType: nil, content: .file(URL(fileURLWithPath: path)))
        }
        part.contentType = sentContentType
        // No type is sent where curl sends none, file name or not.
        part.labelsUntypedFile = false
        return part
    }

    /// The `Content-Type` curl sends with this part: `;type=`, else libcurl's guess
    /// (`Curl_mime_prepare_headers`) from the extension of the file name sent and, for a file
    /// read from its path, then from the path's, then `application/octet-stream`. What it
    /// cannot place goes without one: standard input (`@-`, sent as `-`) and a text field sent
    /// with a file name. A part without a file name is never guessed `text/plain`, so
    /// `name=<notes.txt` is a plain field but `name=<page.html` goes as `text/html`.
    var sentContentType: String? {
        if let contentType { return contentType }
        switch content {
        case .text:
            return filename.flatMap(Self.contentType(forName:))
        case .file("-"):
            return Self.contentType(forName: filename ?? "-")
        case .file(let path):
            let sentName = filename ?? URL(fileURLWithPath: path).lastPathComponent
            return Self.contentType(forName: sentName) ?? Self.contentType(forName: path) ?? "application/octet-stream"
        case .textFromFile("-"):
            return nil
        case .textFromFile(let path):
            let guessed = Self.contentType(forName: path)
            return guessed == "text/plain" ? nil : guessed
        }
    }

    private static func standardInput() throws -> Data {
        // readToEnd throws where readDataToEndOfFile traps (a closed stdin, a directory).
        try FileHandle.standardInput.readToEnd() ?? Data()
    }

    /// The type libcurl gives a name by its extension (`Curl_mime_contenttype`), nil for any
    /// other.
    static func contentType(forName name: String) -> String? {
        let types = [
            "gif": "image/gif", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png",
            "svg": "image/svg+xml", "txt": "text/plain", "htm": "text/html", "html": "text/html",
            "pdf": "application/pdf", "xml": "application/xml",
        ]
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return types[name[name.index(after: dot)...].lowercased()]
    }
}
