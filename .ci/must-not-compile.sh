#!/usr/bin/env bash
# Compiles (to SIL, where the region checks run) each fixture of .ci/fixtures/must-not-compile against the library built in
# .build/debug, in Swift 6 mode, and fails unless each one is refused with the diagnostic its
# first line names (`// expect: ...`). The fixtures of .ci/fixtures/must-compile, sound
# counterparts type-checked the same way, must pass: they show that the refusals come from the
# code, not from the set-up.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
modules="$root/.build/debug/Modules"
fail() { printf 'must-not-compile: FAILED: %s\n' "$*" >&2; exit 1; }

[ -f "$modules/Affix.swiftmodule" ] || fail "build the package first (no $modules/Affix.swiftmodule)"

typecheck() {
  swiftc -emit-sil -o /dev/null -swift-version 6 -I "$modules" \
    -Xcc -fmodule-map-file="$root/.build/debug/AffixRuntimeShims.build/module.modulemap" "$1" 2>&1
}

for fixture in "$root"/.ci/fixtures/must-compile/*.swift; do
  output=$(typecheck "$fixture") || {
    printf '%s\n' "$output"
    fail "$(basename "$fixture") must compile"
  }
  echo "compiles, as it must: $(basename "$fixture")"
done

count=0
for fixture in "$root"/.ci/fixtures/must-not-compile/*.swift; do
  expected=$(sed -n '1s|^// expect: ||p' "$fixture")
  [ -n "$expected" ] || fail "$(basename "$fixture") does not say what it must fail with"
  if output=$(typecheck "$fixture"); then
    fail "$(basename "$fixture") compiled; it must be refused with: $expected"
  fi
  grep -qF -- "$expected" <<<"$output" || {
    printf '%s\n' "$output"
    fail "$(basename "$fixture") was refused, but not with: $expected"
  }
  echo "refused, as it must be: $(basename "$fixture")"
  count=$((count + 1))
done
[ "$count" -gt 0 ] || fail "no fixtures"
echo "must-not-compile: ok ($count refused)"
