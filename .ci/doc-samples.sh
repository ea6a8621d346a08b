#!/usr/bin/env bash
# Compiles every ```swift block of the guides (Docs/*.md, Docs/Internals/*.md) and of the DocC
# catalogs (Sources/*/*.docc/**/*.md and .tutorial), against the public API only: in a package of its own
# that depends on the repository by path, warnings as errors. The README's blocks have their own
# gate (.ci/readme-samples.sh), which also runs them; these are compiled, not run.
#
# The convention, for whoever writes a sample:
# - All ```swift blocks of one document are one program: they are joined in order into the
#   main.swift of one executable target per document, so a later block may use what an earlier
#   one declares, and top-level code runs as in a script. A fragment must therefore be valid where
#   it falls: a method goes in an `extension`, a body in a function, and the names a sample uses
#   are declared by it or by an earlier block of the same document (a stub such as
#   `func fetchGraph() async throws -> Graph { Graph() }` is part of the sample, in view).
# - Nothing is imported implicitly: a block writes its `import` lines. They are moved to the top of
#   the program (Swift wants them there), so they may stand in any block. The target may import
#   every library product of the package, and Testing and XCTest: an executable can use `@Test`,
#   `#expect` and `XCTestCase` on Linux, so tests are compiled like the rest.
# - A block that starts with `// swift-tools-version` is a manifest: it is evaluated
#   (`swift package dump-package`) instead, as the README gate does.
# - Escape hatches, rare: an HTML comment on the line right before the opening fence.
#     <!-- sample: separate -->        compiles the block alone, in a target of its own (a block
#                                      that redefines a name on purpose, say a "before" version).
#     <!-- sample: skip (reason) -->   does not compile the block; the reason is required and
#                                      printed by every run (say, code that needs UIKit).
#   GitHub and DocC render the comment as nothing (DocC drops HTML comments without a warning).
#   A marker the gate does not know, a skip without its reason, a marker apart from its fence and
#   a swift fence with more than `swift` on its line fail the gate: no block is left out unseen.
# - Errors point at the document: each block is preceded by a `#sourceLocation` directive, so the
#   compiler reports `Docs/Loading.md:28:19: error: ...`, and sits on its document's line numbers
#   in the generated program where the imports leave room, so the excerpts are numbered alike.
#
# usage: bash .ci/doc-samples.sh [document...]   (default: every document above)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/.ci/samples-manifest.sh"
work="$root/.build/doc-samples"
# A scratch path of its own: shared with the other samples check, the second package to
# build there found the first one's build graph and failed, depending on the order they ran.
scratch="$root/.build/doc-samples-build"
source "$root/.ci/package.sh"

fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }

cd "$root"
if [ "$#" -gt 0 ]; then
  documents=("$@")
else
  mapfile -t documents < <(
    { ls Docs/*.md Docs/Internals/*.md; find Sources -path '*.docc/*' \( -name '*.md' -o -name '*.tutorial' \); } \
      | LC_ALL=C sort)
fi

# The programs are generated afresh in `generated`, and copied into the package only where they
# changed, so that a run with no document changed compiles nothing.
rm -rf "$work/generated" "$work/manifests" "$work/skipped"
mkdir -p "$work/generated" "$work/Sources" "$work/manifests"
: >"$work/skipped"

checked=0
for document in "${documents[@]}"; do
  [ -f "$document" ] || fail "no document at $document"
  checked=$((checked + 1))
  # Docs/Loading.md -> Doc_Docs_Loading; Sources/AffixTesting/AffixTesting.docc/X.md ->
  # Doc_Sources_AffixTesting_AffixTesting_X
  target="Doc_$(printf '%s' "$document" | sed -E 's/\.docc\//\//; s/\.(md|tutorial)$//; s/[^A-Za-z0-9]/_/g')"
  awk -v doc="$document" -v target="$target" -v sources="$work/generated" \
    -v manifests="$work/manifests" -v skipped="$work/skipped" '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    function problem(message) {
      printf "%s:%d: %s\n", doc, NR, message > "/dev/stderr"; failed = 1; exit 1
    }
    function add(name, start,   i, k, line, key, text) {
      if (!(name in seen)) { seen[name] = 1; names[++named] = name }
      k = ++blocks[name]; starts[name, k] = start; text = ""
      for (i = 1; i <= count; i++) {
        line = lines[i]
        if (line ~ /^(@[A-Za-z_]+ +)*((public|package|internal|fileprivate|private) +)?import +[A-Za-z_]/) {
          key = name SUBSEP trim(line)
          if (!(key in imported)) {
            imported[key] = 1
            imports[name] = imports[name] \
              sprintf("#sourceLocation(file: \"%s\", line: %d)\n%s\n", doc, start + i - 1, line)
          }
          line = ""  # keeps the lines after it where they are in the document
        }
        text = text line "\n"
      }
      texts[name, k] = text
    }
    !inside && trim(previous) ~ /^<!-- *sample:/ && $0 !~ /^[ \t]*```swift[ \t]*$/ {
      NR = NR - 1; problem("a sample marker belongs on the line right before a ```swift fence")
    }
    !inside && /^[ \t]*(```|~~~)[ \t]*[Ss]wift/ && !/^[ \t]*```swift[ \t]*$/ {
      problem("a swift block opens with ```swift alone on its line, or it is not compiled")
    }
    !inside && /^[ \t]*```swift[ \t]*$/ {
      inside = 1; count = 0; start = NR + 1
      indent = $0; sub(/```.*/, "", indent); indent = length(indent)
      marker = trim(previous)
      mode = "joint"
      if (marker ~ /^<!-- *sample:/) {
        if (marker ~ /^<!-- *sample: *separate *-->$/) mode = "separate"
        else if (marker ~ /^<!-- *sample: *skip *(\( *\))? *-->$/)
          problem("a skipped sample needs its reason: <!-- sample: skip (reason) -->")
        else if (marker ~ /^<!-- *sample: *skip *\(.*[^ ].*\) *-->$/) {
          mode = "skip"; reason = marker
          sub(/^<!-- *sample: *skip *\(/, "", reason); sub(/\) *-->$/, "", reason)
        } else problem("unknown sample marker " marker \
          " (known: <!-- sample: separate -->, <!-- sample: skip (reason) -->)")
      }
      next
    }
    inside && /^[ \t]*```[ \t]*$/ {
      inside = 0
      if (count > 0 && lines[1] ~ /^\/\/ swift-tools-version/) {
        folder = manifests "/" target "_L" start
        system("mkdir -p \"" folder "\"")
        for (i = 1; i <= count; i++) print lines[i] > (folder "/Package.swift")
        close(folder "/Package.swift")
        print doc ":" start > (folder "/origin"); close(folder "/origin")
      } else if (mode == "skip") {
        print doc ":" start ": skipped (" reason ")" >> skipped
      } else if (mode == "separate") {
        add(target "_L" start, start)
      } else {
        add(target, start)
      }
      previous = $0; next
    }
    inside {
      line = $0
      for (i = 0; i < indent && substr(line, 1, 1) == " "; i++) line = substr(line, 2)
      lines[++count] = line
    }
    { previous = $0 }
    END {
      if (failed) exit 1
      if (inside) { NR = start - 1; problem("a ```swift block is never closed") }
      for (n = 1; n <= named; n++) {
        name = names[n]
        system("mkdir -p \"" sources "/" name "\"")
        file = sources "/" name "/main.swift"
        # Blank lines put each block on its own lines of the document where the imports leave
        # room, so that the excerpts of the compiler are numbered as the document is.
        program = imports[name]; lines_so_far = gsub(/\n/, "\n", program)
        for (k = 1; k <= blocks[name]; k++) {
          while (lines_so_far < starts[name, k] - 2) { program = program "\n"; lines_so_far++ }
          program = program sprintf("#sourceLocation(file: \"%s\", line: %d)\n", doc, starts[name, k])
          program = program texts[name, k]
          lines_so_far += 1 + gsub(/\n/, "\n", texts[name, k])
        }
        printf "%s#sourceLocation()\n", program > file
        close(file)
      }
    }
  ' "$document" || fail "$document: see above"
done

mapfile -t samples < <(cd "$work/generated" && ls | LC_ALL=C sort)
for sample in "${samples[@]}"; do
  mkdir -p "$work/Sources/$sample"
  cmp -s "$work/generated/$sample/main.swift" "$work/Sources/$sample/main.swift" \
    || cp "$work/generated/$sample/main.swift" "$work/Sources/$sample/main.swift"
done
for folder in "$work/Sources"/*; do
  [ -d "$work/generated/$(basename "$folder")" ] || rm -rf "$folder"
done
mapfile -t manifests < <(cd "$work/manifests" && ls | LC_ALL=C sort)
echo "doc samples: $checked documents, ${#samples[@]} programs, ${#manifests[@]} manifests"
if [ -s "$work/skipped" ]; then cat "$work/skipped"; fi

write_samples_manifest DocSamples "$root" "${samples[@]}" >"$work/Package.swift.new"
cmp -s "$work/Package.swift.new" "$work/Package.swift" || cp "$work/Package.swift.new" "$work/Package.swift"

log="$work/build.log"
if [ "${#samples[@]}" -gt 0 ]; then
  if ! swift build --package-path "$work" --scratch-path "$scratch" -Xswiftc -warnings-as-errors \
    >"$log" 2>&1; then
    cat "$log"
    echo
    echo "In the documents:"
    grep -E '^[^ :]+\.(md|tutorial):[0-9]+(:[0-9]+)?: (error|warning)' "$log" | LC_ALL=C sort -u \
      || true
    fail "a documentation sample does not compile (the lines above are the documents' lines)"
  fi
  if grep -q 'warning:' "$log"; then
    grep -A3 'warning:' "$log"
    fail "a documentation sample compiles with warnings"
  fi
fi

# The sample files kept beside the guides (Docs/<guide>/*.swift) compile against the same build.
if [ "$#" -eq 0 ]; then
  for file in Docs/*/*.swift; do
    [ -f "$file" ] || continue
    swiftc -typecheck -swift-version 6 -warnings-as-errors -I "$scratch/debug/Modules" \
      -Xcc -fmodule-map-file="$scratch/debug/AffixRuntimeShims.build/module.modulemap" "$file" \
      || fail "$file does not compile against the library"
    echo "ok: $file"
  done
fi

for manifest in "${manifests[@]}"; do
  folder="$work/manifests/$manifest"
  origin="$(cat "$folder/origin")"
  # The manifest's own targets need folders to be a package; their contents do not matter.
  mkdir -p "$folder/Sources/App" "$folder/Tests/AppTests"
  echo 'print("app")' >"$folder/Sources/App/main.swift"
  echo 'import Testing' >"$folder/Tests/AppTests/AppTests.swift"
  if ! swift package --package-path "$folder" dump-package >/dev/null 2>"$folder/error.log"; then
    cat "$folder/error.log"
    fail "the manifest at $origin does not evaluate"
  fi
  echo "ok: $origin (a manifest)"
done
echo "Every documentation sample compiles."
