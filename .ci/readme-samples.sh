#!/usr/bin/env bash
# Compiles and runs every ```swift block of README.md as a newcomer would use it: in a package
# of its own that depends on Affix by path, one executable per block, warnings as errors.
# A block that starts with `// swift-tools-version` is a manifest: it is evaluated instead.
# Fails if any block does not compile, prints a warning, or exits non-zero when run.
#
# usage: bash .ci/readme-samples.sh [README.md]
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/.ci/samples-manifest.sh"
readme="${1:-$root/README.md}"
work="$root/.build/readme-samples"
# Shared with .ci/doc-samples.sh: both packages build the library alike, so whichever runs
# second compiles only its own samples.
scratch="$root/.build/samples-build"
source "$root/.ci/package.sh"

fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }
[ -f "$readme" ] || fail "no README at $readme"

rm -rf "$work/Sources" "$work/manifests"
mkdir -p "$work/Sources" "$work/manifests"

# Split the README into numbered blocks, remembering the line each starts on.
awk -v dir="$work/Sources" -v manifests="$work/manifests" '
  /^```swift[[:space:]]*$/ { inside = 1; count += 1; first = 1; start = NR + 1; next }
  /^```/ && inside { inside = 0; close(file); next }
  inside {
    if (first) {
      first = 0
      name = sprintf("Sample%02d", count)
      if ($0 ~ /^\/\/ swift-tools-version/) {
        system("mkdir -p " manifests "/" name)
        file = manifests "/" name "/Package.swift"
      } else {
        system("mkdir -p " dir "/" name)
        file = dir "/" name "/main.swift"
      }
      print "README.md:" start > (dir "/../" name ".origin")
    }
    print > file
  }
' "$readme"

samples=()
for folder in "$work/Sources"/Sample*; do
  [ -d "$folder" ] && samples+=("$(basename "$folder")")
done
manifests=()
for folder in "$work/manifests"/Sample*; do
  [ -d "$folder" ] && manifests+=("$(basename "$folder")")
done
[ "${#samples[@]}" -gt 0 ] || fail "README.md has no \`\`\`swift block"
echo "README samples: ${#samples[@]} programs, ${#manifests[@]} manifests"

write_samples_manifest ReadmeSamples "$root" "${samples[@]}" >"$work/Package.swift"

log="$work/build.log"
if ! swift build --package-path "$work" --scratch-path "$scratch" -Xswiftc -warnings-as-errors \
  >"$log" 2>&1; then
  cat "$log"
  for sample in "${samples[@]}"; do echo "$sample is $(cat "$work/$sample.origin")"; done
  fail "a README sample does not compile (the SampleNN above are the README's swift blocks)"
fi
if grep -q 'warning:' "$log"; then
  grep -A3 'warning:' "$log"
  fail "a README sample compiles with warnings"
fi

bin="$(swift build --package-path "$work" --scratch-path "$scratch" --show-bin-path)"
for sample in "${samples[@]}"; do
  origin="$(cat "$work/$sample.origin")"
  if ! output="$("$bin/$sample" 2>&1)"; then
    printf '%s\n' "$output"
    fail "the sample at $origin exited with an error"
  fi
  echo "ok: $sample ($origin)"
done

for manifest in "${manifests[@]}"; do
  origin="$(cat "$work/$manifest.origin")"
  folder="$work/manifests/$manifest"
  # The manifest's own targets need folders to be a package; their contents do not matter.
  mkdir -p "$folder/Sources/App"
  echo 'print("app")' >"$folder/Sources/App/main.swift"
  if ! swift package --package-path "$folder" dump-package >/dev/null 2>"$folder/error.log"; then
    cat "$folder/error.log"
    fail "the manifest at $origin does not evaluate"
  fi
  echo "ok: $manifest ($origin, a manifest)"
done
echo "Every README sample compiles and runs."
