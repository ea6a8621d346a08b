#!/usr/bin/env bash
# Builds and runs every ```swift block of README.md as a newcomer pastes them: the README's
# manifest (the block that starts with `// swift-tools-version`) becomes the Package.swift of an
# app package, as written; each program block in turn becomes its executable target's
# main.swift, is built and run; each block that imports Testing or XCTest becomes a file of its
# test target, and `swift test` runs them. So a sample that imports a product the manifest does
# not list fails here as it fails for the user.
#
# The one change made to the manifest is where the checkout is: `.package(path: "../affix")`
# becomes this repository's path, and `package: "affix"` its folder's name (a package's name
# is its folder's name).
#
# A program's promised output is checked too: when a block has `print(...)  // text` lines,
# what it prints must be those texts, one line each, in order.
#
# Fails if a block does not compile, compiles with a warning, exits non-zero, prints other than
# it promises, or imports a product of this package that its target does not list.
#
# usage: bash .ci/readme-samples.sh [README.md]
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
readme="${1:-$root/README.md}"
work="$root/.build/readme-samples"
# A scratch path of its own: shared with the other samples check, the second package to
# build there found the first one's build graph and failed, depending on the order they ran.
scratch="$root/.build/readme-samples-build"
source "$root/.ci/package.sh"

fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }
[ -f "$readme" ] || fail "no README at $readme"

rm -rf "$work"
mkdir -p "$work/blocks"

# Split the README into numbered blocks, remembering the line each starts on.
awk -v dir="$work/blocks" '
  /^```swift[[:space:]]*$/ { inside = 1; count += 1; start = NR + 1
    file = sprintf("%s/Sample%02d.swift", dir, count)
    print "README.md:" start > (file ".origin"); close(file ".origin"); next }
  /^```/ && inside { inside = 0; close(file); next }
  inside { print > file }
' "$readme"

manifest=""
programs=()
tests=()
for block in "$work/blocks"/Sample*.swift; do
  [ -f "$block" ] || continue
  if head -n 1 "$block" | grep -q '^// swift-tools-version'; then
    [ -z "$manifest" ] || fail "README.md has two manifests ($(cat "$manifest.origin"), $(cat "$block.origin"))"
    manifest="$block"
  elif grep -qE '^import (Testing|XCTest)$' "$block"; then
    tests+=("$block")
  else
    programs+=("$block")
  fi
done
[ -n "$manifest" ] || fail "README.md has no manifest block (\`// swift-tools-version\`)"
[ "${#programs[@]}" -gt 0 ] || fail "README.md has no program block"
echo "README samples: a manifest, ${#programs[@]} programs, ${#tests[@]} test files"

# The app package, from the manifest as pasted.
app="$work/App"
mkdir -p "$app"
name="$(basename "$root")"
grep -q '\.package(path: "\.\./affix")' "$manifest" \
  || fail "the manifest at $(cat "$manifest.origin") does not depend on \"../affix\""
sed -e "s|\.package(path: \"\.\./affix\")|.package(path: \"$root\")|" \
  -e "s|package: \"affix\"|package: \"$name\"|g" "$manifest" >"$app/Package.swift"

# Its targets and what each depends on, from the manifest itself.
if ! targets_json="$(swift package --package-path "$app" dump-package 2>"$work/manifest.log")"; then
  cat "$work/manifest.log"
  fail "the manifest at $(cat "$manifest.origin") does not evaluate"
fi
targets() {  # targets KIND: "name product product..." per target of that kind
  perl -MJSON::PP -e '
    my $package = decode_json(do { local $/; <STDIN> });
    for my $target (@{ $package->{targets} }) {
      next unless $target->{type} eq $ARGV[0];
      my @products = map { $_->{product} ? $_->{product}[0] : () } @{ $target->{dependencies} };
      print join(" ", $target->{name}, @products), "\n";
    }' "$1" <<<"$targets_json"
}
read -r -a executable <<<"$(targets executable | head -n 1)"
read -r -a test_target <<<"$(targets test | head -n 1)"
[ "${#executable[@]}" -gt 0 ] || fail "the manifest at $(cat "$manifest.origin") has no executable target"
if [ "${#tests[@]}" -gt 0 ] && [ "${#test_target[@]}" -eq 0 ]; then
  fail "the manifest at $(cat "$manifest.origin") has no test target for the tests at $(cat "${tests[0]}.origin")"
fi

# check_imports BLOCK TARGET PRODUCT...: every product of this package the block imports is
# one the target lists, so that the user's first build does not stop at "no such module".
check_imports() {
  local block="$1" target="$2" module
  shift 2
  for module in $(sed -nE 's/^(@[a-z_]+ )?import ([A-Za-z_]+)$/\2/p' "$block"); do
    printf '%s\n' "${library_products[@]}" | grep -qx "$module" || continue
    printf '%s\n' "$@" | grep -qx "$module" \
      || fail "the sample at $(cat "$block.origin") imports $module, which the manifest's target $target does not list"
  done
}

mkdir -p "$app/Sources/${executable[0]}"
for block in "${programs[@]}"; do check_imports "$block" "${executable[@]}"; done
if [ "${#tests[@]}" -gt 0 ]; then
  mkdir -p "$app/Tests/${test_target[0]}"
  for block in "${tests[@]}"; do
    check_imports "$block" "${test_target[@]}"
    cp "$block" "$app/Tests/${test_target[0]}/$(basename "$block")"
  done
fi

build() {  # build ORIGIN: builds the app and its tests, warnings as errors
  local log="$work/build.log"
  if ! swift build --package-path "$app" --scratch-path "$scratch" --build-tests \
    -Xswiftc -warnings-as-errors >"$log" 2>&1; then
    cat "$log"
    fail "the README's samples do not build with the sample at $1 as main.swift"
  fi
  if grep -q 'warning:' "$log"; then
    grep -A3 'warning:' "$log"
    fail "the README's samples build with warnings (the sample at $1 as main.swift)"
  fi
}

# promised BLOCK: the output its `print(...)  // text` lines promise, one text a line.
promised() {
  sed -nE 's|^[[:space:]]*print\(.*\)[[:space:]]+// (.*)$|\1|p' "$1"
}

bin=""
for block in "${programs[@]}"; do
  origin="$(cat "$block.origin")"
  cp "$block" "$app/Sources/${executable[0]}/main.swift"
  build "$origin"
  [ -n "$bin" ] || bin="$(swift build --package-path "$app" --scratch-path "$scratch" --show-bin-path)"
  if ! output="$("$bin/${executable[0]}" 2>&1)"; then
    printf '%s\n' "$output"
    fail "the sample at $origin exited with an error"
  fi
  expected="$(promised "$block")"
  if [ -n "$expected" ] && [ "$output" != "$expected" ]; then
    printf -- '--- promised (the comments of its print lines)\n%s\n--- printed\n%s\n' \
      "$expected" "$output"
    fail "the sample at $origin prints other than its comments promise"
  fi
  echo "ok: $origin${expected:+ (prints what it promises)}"
done

if [ "${#tests[@]}" -gt 0 ]; then
  log="$work/test.log"
  if ! swift test --package-path "$app" --scratch-path "$scratch" --skip-build >"$log" 2>&1; then
    cat "$log"
    fail "the README's tests fail: $(for block in "${tests[@]}"; do cat "$block.origin"; done)"
  fi
  for block in "${tests[@]}"; do echo "ok: $(cat "$block.origin") (a test, run)"; done
fi
echo "ok: $(cat "$manifest.origin") (the manifest every sample above was built with)"
echo "Every README sample builds, as pasted into its manifest, and runs."
