#!/usr/bin/env bash
# Builds and runs Tests/Fixtures/MainQueuePrograms: an `async` program and a `dispatchMain()`
# program, whose main queue Linux runs on a Dispatch thread. Each replaces a value on the main
# queue and exits 0 only if the value's deinit ran on the main queue, with no hook. And
# `observer-cancel`, which exits 0 only if a cancel on the main queue gave up on an observer's
# call waiting for that queue, instead of hanging until the timeout. And `never-drained`, which
# exits 0 only if a main-actor value dropped off a main queue that never runs was kept, its
# deinit run nowhere.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
fixture="$root/Tests/Fixtures/MainQueuePrograms"
scratch="$root/.build/fixtures/MainQueuePrograms"
source "$root/.ci/package.sh"

fail() { printf 'main-queue-programs: FAILED: %s\n' "$*" >&2; exit 1; }

cd "$fixture"
swift build --scratch-path "$scratch" -Xswiftc -warnings-as-errors \
  || fail "the programs do not build with warnings as errors"
for program in async-main dispatch-main observer-cancel never-drained; do
  timeout 60 "$scratch/debug/$program" || fail "$program (exit $?)"
done
echo "main-queue-programs: ok"
