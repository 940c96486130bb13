import Foundation

/// A `multipart/form-data` body as Python 3's standard library parses it (`email.parser` with
/// the HTTP policy), run as a child process: a parser Courier did not write, which decodes
/// RFC 2231 and UTF-8 parameters as it does for everyone.
package struct ParsedMultipartForm: Decodable, Sendable {
    package struct Part: Decodable, Sendable {
        package var disposition: String?
        package var name: String?
        package var filename: String?
        package var contentType: String?
        package var size: Int
        package var hex: String
        package var defects: [String]

        /// The part's content, as the parser decoded it.
        package var content: Data {
            var bytes = Data(capacity: hex.utf8.count / 2)
            var high: UInt8?
            for digit in hex.utf8 {
                let value = digit <= 0x39 ? digit - 0x30 : digit - 0x61 + 10
                if let first = high {
                    bytes.append(first << 4 | value)
                    high = nil
                } else {
                    high = value
                }
            }
            return bytes
        }
    }

    package var multipart: Bool
    package var defects: [String]
    package var parts: [Part]

    /// What the parser could not make sense of.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Parses `body` under `contentType` (the request's `Content-Type` value).
    package static func parse(_ body: Data, contentType: String) async throws -> ParsedMultipartForm {
        try await offThePool {
            let directory = FileManager.default.temporaryDirectory
            let id = UUID().uuidString
            let input = directory.appendingPathComponent("courier-multipart-in-\(id)")
            let output = directory.appendingPathComponent("courier-multipart-out-\(id)")
            let errors = directory.appendingPathComponent("courier-multipart-err-\(id)")
            defer { for file in [input, output, errors] { try? FileManager.default.removeItem(at: file) } }
            try body.write(to: input)
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            let stdin = try FileHandle(forReadingFrom: input)
            let stdout = try FileHandle(forWritingTo: output)
            let stderr = try FileHandle(forWritingTo: errors)
            defer { for handle in [stdin, stdout, stderr] { try? handle.close() } }
            // Through env, so python3 is found on PATH wherever it is installed.
            let process = try SpawnedProcess(
                executable: "/usr/bin/env", arguments: ["python3", "-c", script, contentType],
                standardInput: stdin, standardOutput: stdout, standardError: stderr
            )
            process.waitUntilExit()
            let printed = try Data(contentsOf: output)
            guard process.terminationStatus == 0 else {
                throw Failure(description: "python3 failed (\(process.terminationStatus)): \(String(decoding: try Data(contentsOf: errors), as: UTF8.self))")
            }
            return try JSONDecoder().decode(ParsedMultipartForm.self, from: printed)
        }
    }

    private static let script = """
        import sys, json, email.parser, email.policy
        body = sys.stdin.buffer.read()
        head = b"Content-Type: " + sys.argv[1].encode() + b"\\r\\n\\r\\n"
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
        parts = []
        for part in (message.iter_parts() if message.is_multipart() else []):
            disposition = part.get("Content-Disposition")
            content = part.get_payload(decode=True) or b""
            parts.append({
                "disposition": disposition.content_disposition if disposition is not None else None,
                "name": disposition.params.get("name") if disposition is not None else None,
                "filename": part.get_filename(),
                "contentType": part.get_content_type() if part.get("Content-Type") is not None else None,
                "size": len(content),
                "hex": content.hex(),
                "defects": [type(d).__name__ for d in part.defects],
            })
        print(json.dumps({"multipart": message.is_multipart(), "defects": [type(d).__name__ for d in message.defects], "parts": parts}))
        """
}
