#!/usr/bin/env bash
# Proves that the leak-check gate bites: a deliberately leaking check must make
# `swift package leak-check` fail, and its report must name the leaking test and type.
set -uo pipefail
cd "$(dirname "$0")/.."

# The report is read from standard output alone: SwiftPM writes its own error line to standard
# error when the plugin fails, and merged streams can splice it into the middle of a report line.
errors=$(mktemp)
output=$(AFFIX_DELIBERATE_LEAK=1 swift package leak-check "$@" 2>"$errors")
status=$?
cat "$errors" >&2
rm -f "$errors"
printf '%s\n' "$output" | sed -n '/^leak-check summary/,$p'

if [ "$status" -eq 0 ]; then
  echo "leak-check-selftest: FAIL: leak-check passed although a check leaks on purpose" >&2
  exit 1
fi
if ! grep -qx '    in aDeliberateLeakFailsTheLeakCheck():' <<<"$output"; then
  echo "leak-check-selftest: FAIL: the report does not name the leaking test" >&2
  exit 1
fi
if ! grep -q '^      LEAK: DeliberatelyLeakedNode "deliberate" tracked at LeakCheckTests/DeliberateLeakCheck.swift:[0-9]* is still alive; retain cycle: DeliberatelyLeakedNode.itself -> DeliberatelyLeakedNode$' <<<"$output"; then
  echo "leak-check-selftest: FAIL: the report does not name DeliberatelyLeakedNode and its cycle" >&2
  exit 1
fi
echo "leak-check-selftest: ok (leak-check failed with status $status and named the leaking type)"
