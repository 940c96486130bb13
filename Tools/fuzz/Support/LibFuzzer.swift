#if COURIER_FUZZ
import Foundation

// libFuzzer's own main cannot be used: SwiftPM links an executable's entry point as `main`, so
// the target keeps its main and hands control to libFuzzer's driver, which is what
// LLVMFuzzerRunDriver is for. Both arguments are libFuzzer's: corpus directories and -flags.

nonisolated(unsafe) private var fuzzedTarget: FuzzTarget?

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// libFuzzer's entry point for one input. A broken property aborts, which libFuzzer records as
/// a crash and saves as a `crash-…` file.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = fuzzedTarget else { return 0 }
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let problem = target.property(bytes) {
        FileHandle.standardError.write(Data("\(target.name): property failed: \(problem)\n".utf8))
        abort()
    }
    return 0
}

func runLibFuzzer(_ target: FuzzTarget) -> Never {
    fuzzedTarget = target
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput))
}
#endif
