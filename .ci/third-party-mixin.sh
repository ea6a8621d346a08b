#!/usr/bin/env bash
# Builds and tests Tests/Fixtures/ThirdPartyMixin, a mixin and a layout on AffixLayout in a
# package of its own that depends on Affix by path and uses its public API alone, with
# main-actor hosts, tests on virtual time and a leak check run by `swift package leak-check`.
# Fails if the fixture needs what a third party cannot write: an unchecked promise to the
# compiler, or a warning.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
fixture="$root/Tests/Fixtures/ThirdPartyMixin"
# Outside the fixture, so that no build products land among the repository's sources.
scratch="$root/.build/fixtures/ThirdPartyMixin"
source "$root/.ci/package.sh"

fail() { printf 'third-party-mixin: FAILED: %s\n' "$*" >&2; exit 1; }

if grep -rnE '@unchecked|nonisolated\(unsafe\)|@preconcurrency' "$fixture/Sources" "$fixture/Tests"; then
  fail "the fixture makes an unchecked promise (above); a third party's mixin must need none"
fi

cd "$fixture"
swift build --build-tests --scratch-path "$scratch" -Xswiftc -warnings-as-errors \
  || fail "the fixture does not build on Affix's public API with warnings as errors"
swift test --skip-build --scratch-path "$scratch" || fail "the fixture's tests"
output=$(swift package --scratch-path "$scratch" leak-check 2>&1) || {
  printf '%s\n' "$output"
  fail "the fixture's leak checks"
}
grep -qE '^  leak checks run: [1-9]' <<<"$output" \
  || fail "leak-check ran no leak check in the fixture"
echo "third-party-mixin: ok"
