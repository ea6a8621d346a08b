#!/usr/bin/env bash
# Builds the mixin modules against a copy of the library in which every `package` declaration
# of Affix and AffixScheduling is made `internal`: a mixin that compiles there uses only what a
# third party's mixin can use, and AffixScheduling only what Affix makes public. Fails when a
# mixin (or AffixScheduling) reaches for a `package` declaration, and when the rewrite finds
# nothing to rewrite (the check would then prove nothing).
#
# usage: bash .ci/package-access-check.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build/package-access"
source "$root/.ci/package.sh"

# The modules that must build on public API alone, in the manifest's (dependency) order.
targets=("${mixin_modules[@]}")

fail() { printf 'package-access-check: FAILED: %s\n' "$*" >&2; exit 1; }

# Copied afresh each time; the build directory beside it is kept, so the build stays
# incremental (unchanged files keep their contents, and SwiftPM compares those).
rm -rf "$work/package"
mkdir -p "$work/package"
cp -R "$root/Package.swift" "$root/Sources" "$root/Plugins" "$root/Tests" "$work/package/"

# A declaration modifier, not the word in a comment or a string: `package` at the start of a
# line's code (after attributes such as `@usableFromInline`), followed by what a declaration
# continues with.
rewritten=0
for module in Affix AffixScheduling; do
  while IFS= read -r -d '' file; do
    count=$(perl -ne '
      next if m{^\s*//};
      $n++ if /^(\s*(?:@\w+(?:\([^)]*\))?\s+)*)package(\(set\))?\s+(?=\w)/;
      END { print $n + 0 }' "$file")
    [ "$count" -eq 0 ] && continue
    perl -i -pe '
      next if m{^\s*//};
      s/^(\s*(?:@\w+(?:\([^)]*\))?\s+)*)package(\(set\))?(\s+)(?=\w)/$1internal$2$3/;' "$file"
    rewritten=$((rewritten + count))
  done < <(find "$work/package/Sources/$module" -name '*.swift' -print0)
done
[ "$rewritten" -gt 0 ] || fail "found no package declaration to rewrite; the check proves nothing"
echo "package-access-check: made $rewritten package declarations internal"

cd "$work/package"
for target in "${targets[@]}"; do
  [ -d "Sources/$target" ] || fail "no target $target"
  swift build --target "$target" --scratch-path "$work/build" -Xswiftc -warnings-as-errors \
    || fail "$target uses a package declaration of Affix or AffixScheduling (see the errors above)"
done
echo "package-access-check: ok (${targets[*]} build on public API alone)"
