#!/usr/bin/env bash
# The benchmark targets and their latest measured ranges have one source,
# Docs/benchmark-targets.json. Docs/Benchmarks.md discusses each figure in a row of its table;
# this check fails when a row states another target, another range, or calls a met target
# missed (or the other way round), when a target has no row, and when another page or a
# comment states a measured time or ratio.
#
# usage: bash .ci/benchmarks.sh
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

python3 - <<'PYTHON'
import json, sys

targets = json.load(open("Docs/benchmark-targets.json"))["targets"]
page = open("Docs/Benchmarks.md", encoding="utf-8").read().splitlines()


def number(value):
    """A number as the data file writes it: an integer with its thousands grouped, a decimal
    with the digits given (2.0 stays 2.0)."""
    if isinstance(value, int):
        return f"{value:,}"
    return repr(value)


def with_unit(text, unit):
    return f"{text}x" if unit == "x" else f"{text} {unit}"


problems = []
for target in targets:
    figure, unit = target["figure"], target["unit"]
    row_name = target.get("row", figure)
    rows = [line for line in page if line.startswith(f"| `{row_name}`")]
    if len(rows) != 1:
        problems.append(f"{figure}: Docs/Benchmarks.md has {len(rows)} rows for `{row_name}`, not 1")
        continue
    cells = [cell.strip() for cell in rows[0].strip("|").split(" | ")]
    if len(cells) < 3:
        problems.append(f"{figure}: its row has {len(cells)} cells, not 3")
        continue
    target_cell, measured_cell = cells[1], " | ".join(cells[2:])
    words = ("at least " if target["atLeast"] else "at most ") + with_unit(
        number(target["target"]), unit)
    if not target_cell.startswith(words):
        problems.append(f"{figure}: the page's target is '{target_cell}', the data file's '{words}'")
    low, high = target["measured"][0], target["measured"][-1]
    span = number(low) if low == high else f"{number(low)}-{number(high)}"
    stated = with_unit(span, unit)
    if stated not in measured_cell:
        problems.append(f"{figure}: the page's row does not state the data file's range '{stated}'")
    met = low >= target["target"] if target["atLeast"] else high <= target["target"]
    # The page marks a miss in bold: **5.6-5.8x, missed**.
    marked = any("missed" in span for span in measured_cell.split("**")[1::2])
    if met and marked:
        problems.append(f"{figure}: the data file's range meets its target; the page marks a miss")
    if not met and not marked:
        problems.append(
            f"{figure}: the data file's range misses its target; the page marks no miss "
            "(**..., missed**)")

# Figures are stated on this page alone (and in the dated Decisions records): anywhere else a
# measured time or ratio drifts from the page. Other docs and comments name the figure.
import glob, re
figure = re.compile(r"[0-9] ?ns\b|\b[0-9]+\.[0-9]+x\b")
stated = ["README.md", "CONTRIBUTING.md"] + glob.glob("Docs/*.md") + glob.glob("Docs/Internals/*.md") + glob.glob(
    "Sources/*/*.docc/**/*.md", recursive=True) + glob.glob("Sources/**/*.swift", recursive=True)
for path in stated:
    if path == "Docs/Benchmarks.md" or path.startswith("Sources/AffixBench"):
        continue
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if path.endswith(".swift") and "//" not in line:
            continue
        if figure.search(line):
            problems.append(f"{path}:{number}: states a measured figure; name it, as "
                            f"affix-bench prints it, and leave its value to Docs/Benchmarks.md")

for problem in problems:
    print(problem, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"benchmarks: the page states the {len(targets)} targets and ranges of the data file")
PYTHON
