#!/usr/bin/env bash
# The project's own bad-input suite, in the release configuration: every case in a child
# process of its own, so that a crash or a hang is counted, not fatal. Fails on any case that
# crashed, hung, left non-finite or inconsistent state, lost a value or missed a promised
# diagnostic, and when Docs/BadInputResults.md is not the table this run writes.
#
# usage: bash .ci/bad-input.sh            run the suite, check the table
#        bash .ci/bad-input.sh --update   run the suite, rewrite the table
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
source .ci/package.sh

swift build -c release --product affix-badinput
suite="$(swift build -c release --product affix-badinput --show-bin-path)/affix-badinput"

table=Docs/BadInputResults.md
written=$(mktemp)
trap 'rm -f "$written"' EXIT
status=0
"$suite" --write-table "$written" || status=$?
if [ "${1:-}" = "--update" ]; then
  cp "$written" "$table"
  echo "wrote $table"
fi
if [ "$status" -ne 0 ]; then
  echo "FAILED: the bad-input suite found cases that crashed, hung or misbehaved (above)" >&2
  exit 1
fi
if ! diff -u "$table" "$written"; then
  echo "FAILED: $table is not what the suite writes: run bash .ci/bad-input.sh --update" >&2
  exit 1
fi
echo "$table is up to date"
