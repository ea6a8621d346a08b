#!/usr/bin/env bash
# Compiles (to SIL, where the region checks run) each fixture of Tests/Fixtures/must-not-compile against the library built in
# .build/debug, in Swift 6 mode, and fails unless each one is refused with the diagnostic its
# first line names (`// expect: ...`). The fixtures of Tests/Fixtures/must-compile, sound
# counterparts type-checked the same way, must pass: they show that the refusals come from the
# code, not from the set-up. The messages Docs/Concurrency.md quotes must be fixtures' own.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
modules="$root/.build/debug/Modules"
fail() { printf 'must-not-compile: FAILED: %s\n' "$*" >&2; exit 1; }

[ -f "$modules/Affix.swiftmodule" ] || fail "build the package first (no $modules/Affix.swiftmodule)"

sil=$(mktemp)
trap 'rm -f "$sil"' EXIT
# A fixture may ask for more compiler flags on a line `// flags: ...` (an escape hatch that only
# -strict-memory-safety flags, say). Flags after the fixture's path are added to its own.
typecheck() {
  local flags
  read -r -a flags <<<"$(sed -n 's|^// flags: ||p' "$1")"
  # Never `-o /dev/null`: a failing compile deletes its output file, and as root that is the
  # device itself.
  swiftc -emit-sil -o "$sil" -swift-version 6 -I "$modules" "${flags[@]}" "${@:2}" \
    -Xcc -fmodule-map-file="$root/.build/debug/AffixRuntimeShims.build/module.modulemap" "$1" 2>&1
}

# A must-compile fixture compiles as it is, then once more for each line `// also with: ...`,
# with those flags added (an upcoming feature that changes what the same code means, say).
for fixture in "$root"/Tests/Fixtures/must-compile/*.swift; do
  output=$(typecheck "$fixture") || {
    printf '%s\n' "$output"
    fail "$(basename "$fixture") must compile"
  }
  echo "compiles, as it must: $(basename "$fixture")"
  while read -r -a extra; do
    [ "${#extra[@]}" -gt 0 ] || continue
    output=$(typecheck "$fixture" "${extra[@]}") || {
      printf '%s\n' "$output"
      fail "$(basename "$fixture") must compile with ${extra[*]}"
    }
    echo "compiles, as it must, with ${extra[*]}: $(basename "$fixture")"
  done < <(sed -n 's|^// also with: ||p' "$fixture")
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

# The concurrency page's table of messages quotes the compiler as the fixtures do: each row's
# quoted message must be the `// expect:` line of a fixture, so that a message the compiler no
# longer prints (or a fixture reshaped) does not leave the page promising it.
python3 - "$root" <<'PYTHON' || fail "Docs/Concurrency.md quotes a message that no fixture expects"
import glob, re, sys

root = sys.argv[1]
expected = set()
for path in glob.glob(f"{root}/Tests/Fixtures/must-not-compile/*.swift"):
    first = open(path, encoding="utf-8").readline()
    expected.add(first.removeprefix("// expect: ").strip())
page = open(f"{root}/Docs/Concurrency.md", encoding="utf-8").read()
start, end = page.find("<!-- messages"), page.find("<!-- /messages -->")
if start < 0 or end < start:
    sys.exit("Docs/Concurrency.md: no <!-- messages --> table")
rows = [line for line in page[start:end].splitlines() if line.startswith("|")][2:]
problems = []
for row in rows:
    quoted = re.match(r'\| "([^"]+)"', row)
    if not quoted:
        problems.append(f"Docs/Concurrency.md: a row of the messages table quotes none: {row[:60]}")
        continue
    message = quoted.group(1)
    if message not in expected:
        problems.append(f"Docs/Concurrency.md quotes \"{message}\", which no fixture expects")
if not rows:
    problems.append("Docs/Concurrency.md: the messages table has no quoted message")
for problem in problems:
    print(f"must-not-compile: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"must-not-compile: the concurrency page's {len(rows)} messages are the fixtures' own")
PYTHON
echo "must-not-compile: ok ($count refused, each first on its racing line; $after_macro after the #isolation macro's own error)"
