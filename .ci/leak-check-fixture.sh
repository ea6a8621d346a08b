#!/usr/bin/env bash
# Runs `swift package leak-check` as a user of Affix would: in a package outside this one
# (Tests/Fixtures/LeakCheckApp) with leak checks in two test targets of its own, tagged
# `.leakCheck` or marked with the `.checksLeaks` trait alone (a test and a suite of each),
# beside an ordinary test. One check leaks through an association on purpose.
# Passes only if the plugin
#   - finds and runs exactly the five leak checks, and not the ordinary test;
#   - fails on the leaking one, naming the test and the cycle through the association;
#   - passes when narrowed (--target, --filter) to clean checks;
#   - fails when nothing is left to run.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/.ci/package.sh"
cd "$root/Tests/Fixtures/LeakCheckApp"

status=0
fail() { printf 'leak-check-fixture: FAIL: %s\n' "$*" >&2; status=1; }

# The summary is read from standard output alone: SwiftPM writes its own error line to
# standard error when the plugin fails, and merged streams could splice it into a report line.
leak_check() {
  local errors
  errors=$(mktemp)
  output=$(swift package --scratch-path "$root/.build/fixtures/LeakCheckApp" leak-check "$@" 2>"$errors")
  code=$?
  cat "$errors" >&2
  rm -f "$errors"
  printf '%s\n' "$output" | sed -n '/^leak-check summary/,$p'
}
expect_line() {  # a whole line of the output, as an extended regular expression
  # A here-string, not a pipe: grep -q stops reading at its match, and under pipefail the
  # writer's broken pipe would fail a pipeline whose output is longer than one write.
  grep -qE "^$1\$" <<<"$output" || fail "$2"
}

echo "== the whole package: five leak checks, two by the trait alone, one leaking"
leak_check
[ "$code" -ne 0 ] || fail "leak-check passed although closingADocumentWithItsInspectorReleasesBoth() leaks"
expect_line '  leak checks found: 5 \(AppModelTests 2, AppTests 3\)' \
  "did not find the five leak checks (those with only the .checksLeaks trait included)"
expect_line '  leak checks run: 5 \(Swift Testing 5, XCTest 0\)' "did not run the five leak checks"
expect_line '    in closingADocumentWithItsInspectorReleasesBoth\(\):' "does not name the leaking test"
expect_line '      LEAK: Document tracked at AppTests/DocumentLeakChecks\.swift:[0-9]+ is still alive; retain cycle: Document -\[InspectorKey\]-> Inspector\.document -> Document' \
  "does not show the cycle through the association"
expect_line 'leak-check: FAILED: 1 leak in closingADocumentWithItsInspectorReleasesBoth\(\); 1 failed' \
  "the verdict does not name the one leaking test"
if grep -q 'aDocumentKeepsItsTitle' <<<"$output"; then
  fail "ran aDocumentKeepsItsTitle(), which is not a leak check"
fi

echo "== --target AppModelTests: a clean suite tagged as a whole, one marked with the trait"
leak_check --target AppModelTests
[ "$code" -eq 0 ] || fail "leak-check failed on the clean AppModelTests"
expect_line '  leak checks run: 2 \(Swift Testing 2, XCTest 0\)' "--target did not narrow to two checks"
expect_line 'leak-check: passed' "no passing verdict for AppModelTests"

echo "== --filter WeakInspector: the clean check beside the leaking one"
leak_check --target AppTests --filter WeakInspector
[ "$code" -eq 0 ] || fail "leak-check failed on the clean check in AppTests"
expect_line '  leak checks run: 1 \(Swift Testing 1, XCTest 0\)' "--filter did not narrow to one check"

echo "== --filter that matches nothing"
leak_check --filter NoSuchCheck
[ "$code" -ne 0 ] || fail "leak-check passed although no leak check ran"
expect_line '  leak checks found: 0 \(of 6 tests listed\)' "does not say that no leak check was found"

if [ "$status" -eq 0 ]; then
  echo "leak-check-fixture: ok"
fi
exit "$status"
