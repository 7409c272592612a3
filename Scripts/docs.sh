#!/usr/bin/env bash
# Builds the DocC archives of the libraries (CheckoutCore, CheckoutStripe, CheckoutFlows,
# CheckoutPayContext, CheckoutStripeBackends, CheckoutTesting, CheckoutPayContextTesting,
# CheckoutWeb, CheckoutWebRelay) with the toolchain's own `docc`, from symbol graphs the compiler
# emits, and fails when docc reports any warning.
#
#   Scripts/docs.sh            # from any directory
#
# Outputs, under .build/docs/:
#   <Module>.doccarchive       one per library above
#   symbol-graphs/<Module>/    the symbol graphs each archive was built from
#   logs/<Module>.log          docc's full output (warnings, and notes from --analyze)
#   scratch/                   the dedicated SwiftPM build
#
# Nothing is downloaded and no SwiftPM plugin is used. The archives are built in dependency order,
# each with the archives before it as `--dependency`, so that CheckoutFlows can link CheckoutCore's
# symbols as ``/CheckoutCore/Money`` (and CheckoutPayContext those of both).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$(pwd)

modules=(
    CheckoutCore CheckoutStripe CheckoutFlows CheckoutPayContext CheckoutStripeBackends CheckoutTesting
    CheckoutPayContextTesting CheckoutWeb CheckoutWebRelay
)
out="$root/.build/docs"
scratch="$out/scratch"
graphs="$out/symbol-graphs"
logs="$out/logs"

rm -rf "$graphs" "$logs"
for module in "${modules[@]}"; do rm -rf "$out/$module.doccarchive"; done
mkdir -p "$graphs/all" "$logs"

# The compiler writes a module's symbol graph only when it compiles that module, so an
# incremental build would leave graphs out: build from a clean dedicated scratch path.
rm -rf "$scratch"
echo "==> swift build (symbol graphs)"
# One build per leaf library, in the same scratch path: each compiles what the one before did not.
for leaf in CheckoutPayContextTesting CheckoutWeb CheckoutWebRelay; do
    swift build \
        --scratch-path "$scratch" \
        --target "$leaf" \
        -Xswiftc -emit-symbol-graph \
        -Xswiftc -emit-extension-block-symbols \
        -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs/all"
done

warnings=0
failed=0
dependencies=()
for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    if [[ ! -d "$catalog" ]]; then
        echo "error: $catalog is missing" >&2
        exit 1
    fi
    # Only this module's graphs: its own and those of its extensions to other modules.
    mkdir -p "$graphs/$module"
    shopt -s nullglob
    module_graphs=("$graphs/all/$module.symbols.json" "$graphs/all/$module@"*.symbols.json)
    shopt -u nullglob
    if [[ ! -f "$graphs/all/$module.symbols.json" ]]; then
        echo "error: the compiler emitted no symbol graph for $module" >&2
        exit 1
    fi
    cp "${module_graphs[@]}" "$graphs/$module/"

    archive="$out/$module.doccarchive"
    log="$logs/$module.log"
    echo "==> docc convert $catalog"
    status=0
    docc convert "$catalog" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "com.example.checkout.$module" \
        --enable-experimental-external-link-support \
        "${dependencies[@]}" \
        --analyze \
        --output-path "$archive" >"$log" 2>&1 || status=$?
    cat "$log"
    count=$(grep -c -E '(^|[[:space:]])(warning|error):' "$log" || true)
    echo "==> $module: $count warning(s) or error(s), docc exit status $status"
    warnings=$((warnings + count))
    if [[ $status -ne 0 ]]; then failed=1; fi
    dependencies+=(--dependency "$archive")
done

if [[ $warnings -ne 0 || $failed -ne 0 ]]; then
    echo "docs: FAILED: $warnings warning(s) or error(s) from docc; see $logs" >&2
    exit 1
fi
echo "docs: OK, 0 warnings: ${modules[*]/%/.doccarchive} in $out"
