# The symbol graphs of the library products, for scripts/api (their public API) and scripts/docs
# (their documentation). Sourced by those scripts from the package root, never run alone.
#
# It reads the modules the debug build left in .build/debug/Modules (`swift build` or
# `swift build --build-tests` first) with swift-symbolgraph-extract, in a second or two: it never
# builds. The graphs are the Linux toolchain's view where it runs there (FoundationNetworking,
# OpenCombine), which is where CI runs.

# The library products of Package.swift; CourierTestServer is a product only for the tests, the
# tool and the benchmarks, so its API is free to change and its documentation unpublished.
library_modules=(Courier CourierWebSocket CourierCurl CourierConfiguration CourierLogging CourierMetrics CourierTracing
    CourierCombine CourierOpenAPI CourierParity CourierSSE)

symbol_graph_build=.build/debug

# Exits with status 2, saying so, unless the build has made every library module.
require_built_library_modules() {
    local module
    for module in "${library_modules[@]}"; do
        [ -f "$symbol_graph_build/Modules/$module.swiftmodule" ] || {
            echo "$(basename "$0"): $symbol_graph_build/Modules/$module.swiftmodule is missing: run 'swift build' first" >&2
            exit 2
        }
    done
}

# extract_symbol_graphs FOLDER [FLAG...] -- MODULE...
# Writes the public symbols of each MODULE, with their doc comments and source locations, to
# FOLDER/MODULE/*.symbols.json (one file for the module, one per module it extends), passing each
# FLAG to swift-symbolgraph-extract as well.
extract_symbol_graphs() {
    local folder=$1 module map target sdk=/ flags=()
    shift
    while [ "$1" != -- ]; do flags+=("$1"); shift; done
    shift
    # The C modules the Swift modules import, as the build found them: the package's own under
    # Modules/, SwiftPM's generated module maps, and the dependencies' include/ folders.
    local search=(-I "$symbol_graph_build/Modules")
    for map in Modules/*/module.modulemap "$symbol_graph_build"/*.build/module.modulemap \
        .build/checkouts/*/Sources/*/include/module.modulemap; do
        [ -f "$map" ] && search+=(-Xcc "-fmodule-map-file=$PWD/$map")
    done
    target=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
    [ "$(uname)" = Darwin ] && sdk=$(xcrun --show-sdk-path)
    for module in "$@"; do
        mkdir -p "$folder/$module"
        swift-symbolgraph-extract -module-name "$module" -target "$target" -sdk "$sdk" "${search[@]}" \
            -module-cache-path "$folder/.module-cache" -minimum-access-level public -skip-synthesized-members \
            ${flags[@]+"${flags[@]}"} -output-dir "$folder/$module" >/dev/null
    done
}
