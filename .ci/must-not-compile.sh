#!/usr/bin/env bash
# Compiles (to SIL, where the region checks run) each fixture of Tests/Fixtures/must-not-compile against the library built in
# .build/debug, in Swift 6 mode, and fails unless each one is refused with the diagnostic its
# first line names (`// expect: ...`). The fixtures of Tests/Fixtures/must-compile, sound
# counterparts type-checked the same way, must pass: they show that the refusals come from the
# code, not from the set-up.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
modules="$root/.build/debug/Modules"
fail() { printf 'must-not-compile: FAILED: %s\n' "$*" >&2; exit 1; }

[ -f "$modules/Affix.swiftmodule" ] || fail "build the package first (no $modules/Affix.swiftmodule)"

sil=$(mktemp)
trap 'rm -f "$sil"' EXIT
# A fixture may ask for more compiler flags on a line `// flags: ...` (an escape hatch that only
# -strict-memory-safety flags, say).
typecheck() {
  local flags
  read -r -a flags <<<"$(sed -n 's|^// flags: ||p' "$1")"
  # Never `-o /dev/null`: a failing compile deletes its output file, and as root that is the
  # device itself.
  swiftc -emit-sil -o "$sil" -swift-version 6 -I "$modules" "${flags[@]}" \
    -Xcc -fmodule-map-file="$root/.build/debug/AffixRuntimeShims.build/module.modulemap" "$1" 2>&1
}

for fixture in "$root"/Tests/Fixtures/must-compile/*.swift; do
  output=$(typecheck "$fixture") || {
    printf '%s\n' "$output"
    fail "$(basename "$fixture") must compile"
  }
  echo "compiles, as it must: $(basename "$fixture")"
done

count=0
after_macro=0
for fixture in "$root"/Tests/Fixtures/must-not-compile/*.swift; do
  expected=$(sed -n '1s|^// expect: ||p' "$fixture")
  [ -n "$expected" ] || fail "$(basename "$fixture") does not say what it must fail with"
  if output=$(typecheck "$fixture"); then
    fail "$(basename "$fixture") compiled; it must be refused with: $expected"
  fi
  # A compiler that crashes after its errors refuses nothing on purpose.
  if grep -q 'Program crashed' <<<"$output"; then
    printf '%s\n' "$output"
    fail "$(basename "$fixture") crashed the compiler; reshape it"
  fi
  # The first error on a line of the fixture must be the expected one: the race, named where it
  # is written. An error the `#isolation` macro's expansion reports first (its buffer is not the
  # fixture's, `macro expansion #isolation:1:1`) is counted: the compiler type-checks a default
  # argument before it checks isolation, so every call that needs an actor, made where there is
  # none, reads "'nil' is not compatible with expected argument type 'any Actor'" first.
  first=$(grep -m1 -E "^$(basename "$fixture" | sed 's/[.]/[.]/g'):[0-9]+:[0-9]+: error: |^[^ ]*/$(basename "$fixture" | sed 's/[.]/[.]/g'):[0-9]+:[0-9]+: error: " <<<"$output" || true)
  grep -qF -- "$expected" <<<"$first" || {
    printf '%s\n' "$output"
    fail "$(basename "$fixture"): the first error on its lines is not: $expected (it is: ${first:-none})"
  }
  if grep -m1 ' error: ' <<<"$output" | grep -q '^macro expansion #isolation'; then
    after_macro=$((after_macro + 1))
  fi
  echo "refused, as it must be: $(basename "$fixture")"
  count=$((count + 1))
done
[ "$count" -gt 0 ] || fail "no fixtures"
echo "must-not-compile: ok ($count refused, each first on its racing line; $after_macro after the #isolation macro's own error)"
