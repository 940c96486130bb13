#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ArgumentParser
import Courier
import Foundation

/// curl's `-F/--form` for `courier request`: a `multipart/form-data` body, one part per `-F`,
/// in the order given (see ``FormArgument`` for the syntax).
///
/// Files named with `@` and `<` are read while the body is sent, so memory stays bounded
/// whatever their size; the body has a known length and goes out with `Content-Length`. `-F`
/// implies POST, and cannot be given with `-d` or `--json`.
struct FormOptions: ParsableArguments {
    @Option(name: [.customShort("F"), .customLong("form")], help: ArgumentHelp(
        "A multipart/form-data field, curl's syntax: name=value, name=@FILE (a file, its name sent; ;type=MIME and ;filename=NAME after it), name=<FILE (a file's bytes as a text field); - reads stdin. Repeatable, one part each; implies POST.",
        valueName: "name=content"
    ))
    var fields: [String] = []

    func validate() throws {
        for field in fields { _ = try FormArgument(field) }
    }

    /// A usage error when `-F` is given with another body, as curl refuses to mix them.
    func validate(data: String?, json: String?) throws {
        guard !fields.isEmpty, data != nil || json != nil else { return }
        throw ValidationError("give -F, or -d or --json, not both: a request has one body")
    }

    /// The form's body, read once for every URL, or nil without `-F`; writes curl's warnings
    /// for skipped parameters. Exits 26 when a file cannot be read, as curl does.
    func upload(method: String, url target: URL) throws -> RequestBody? {
        do {
            return try upload()
        } catch {
            let reason = (error as? MultipartFormError)?.description ?? RequestCommand.describe(fileError: error)
            Terminal.errorLine("\(method) \(target.redactedString): cannot read the request body: \(reason)")
            throw ExitCode(CurlExitCode.readError)
        }
    }

    /// - Throws: the file system's error when a file cannot be read or its size is not known;
    ///   `MultipartFormError` for a `;type=` with a control character.
    private func upload() throws -> RequestBody? {
        guard !fields.isEmpty else { return nil }
        var form = MultipartForm()
        for field in fields {
            let argument = try FormArgument(field)
            for warning in argument.warnings { Terminal.errorLine("warning: \(warning)") }
            form.parts.append(try argument.part())
        }
        return try RequestBody.multipart(form)
    }
}
