#!/usr/bin/env bash
# Every `@unchecked Sendable` in Sources/ is a promise the compiler cannot check; Docs/Concurrency.md
# argues each in one table. This check fails when a declaration is missing from the table, when
# the table names one that no longer exists, when the benchmark executable's count differs from
# the one the page states, and when a sample, a guide's mixin, AffixTooltip, AffixLayout or the
# third party's mixin has one (the page promises they have none).
#
# usage: bash .ci/unchecked-sendable.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

python3 - <<'PYTHON'
import pathlib, re, sys

declaration = re.compile(r"\b(?:class|struct|enum|actor|extension)\s+(\w+)[^{]*@unchecked\s+Sendable")


def declared(paths):
    names = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith("//"):
                continue
            match = declaration.search(line)
            if match:
                names.append((match.group(1), str(path)))
    return names


sources = sorted(pathlib.Path("Sources").rglob("*.swift"))
library = declared(p for p in sources if "AffixBench" not in p.parts)
bench = declared(p for p in sources if "AffixBench" in p.parts)

page = pathlib.Path("Docs/Concurrency.md").read_text(encoding="utf-8")
section = page.split("## Every `@unchecked Sendable` in `Sources/`", 1)
if len(section) != 2:
    sys.exit("unchecked-sendable: Docs/Concurrency.md has no section 'Every `@unchecked Sendable` in `Sources/`'")
table = [line for line in section[1].splitlines() if line.startswith("| `")]
listed = set()
for row in table:
    first_cell = row.split("|")[1]
    # `Retirement.Shard` names the nested `Shard`.
    listed.update(name.split(".")[-1] for name in re.findall(r"`([\w.]+)`", first_cell))

problems = []
for name, path in library:
    if name not in listed:
        problems.append(f"{path}: `{name}` is @unchecked Sendable and not in Docs/Concurrency.md's table")
for name in sorted(listed - {name for name, _ in library}):
    problems.append(f"Docs/Concurrency.md's table names `{name}`, which is not @unchecked Sendable in Sources/")

words = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
stated = re.search(r"The benchmark executable has (\w+) more", section[1])
if not stated or words.get(stated.group(1)) != len(bench):
    problems.append(
        f"Docs/Concurrency.md states the benchmark executable's count as "
        f"{stated.group(1) if stated else 'nothing'}; it has {len(bench)}")

none_here = [pathlib.Path("Sources/AffixTooltip"), pathlib.Path("Sources/AffixLayout"),
             pathlib.Path("Tests/Fixtures/ThirdPartyMixin"),
             pathlib.Path("Tests/Fixtures/must-compile"), pathlib.Path("Docs")]
for directory in none_here:
    for path in sorted(directory.rglob("*")):
        if path.suffix not in (".swift", ".md") or not path.is_file():
            continue
        # The guide's measurement of a mixin written without the kit: it shows the promises
        # the kit keeps for its users, and the guide's table counts them.
        if path == pathlib.Path("Docs/WritingAMixin/BlinkingFromScratch.swift"):
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".md":
            # Code samples only: the prose of this very page names the attribute.
            text = "\n".join(re.findall(r"```swift\n(.*?)```", text, flags=re.S))
        if "@unchecked Sendable" in text:
            problems.append(f"{path}: has @unchecked Sendable, which the page says it does not")

if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit("unchecked-sendable: FAILED")
print(f"unchecked-sendable: ok ({len(library)} declarations argued in Docs/Concurrency.md, "
      f"{len(bench)} in the benchmark executable)")
PYTHON
