#!/usr/bin/env bash
# Every process-wide lock of the core joins ProcessLocks, so that the fork handlers take it:
# fails when a `static let` of Sources/Affix makes a lock (Locked, SpinLock, Mutex, LockedState)
# without `processWide:` in the same declaration, and when it finds no lock at all (the check
# would then prove nothing).
#
# usage: bash .ci/process-locks.sh
set -euo pipefail
cd "$(dirname "$0")/.."

perl -ne '
  # A declaration is its `static let` line and the lines after it indented deeper, or closing
  # it at its own indentation (`}()`, `)`).
  if (defined $indent) {
    if (/^(\s*)\S/ && (length($1) > $indent || /^\s*[\})]/)) { $decl .= $_; next }
    check();
  }
  if (/^(\s*)(?:(?:private|fileprivate|package|public|internal)\s+)?static\s+let\s+(\w+)/) {
    ($indent, $name, $decl, $file) = (length($1), $2, $_, $ARGV);
  }
  sub check {
    if ($decl =~ /\b(?:Locked|SpinLock|Mutex|LockedState)\b/) {
      $found++;
      if ($decl !~ /processWide:/) {
        print "$file: static let $name makes a lock that does not join ProcessLocks\n"; $bad++;
      }
    }
    undef $indent;
  }
  END {
    check() if defined $indent;
    if (!$found) { print "no process-wide lock found: the check proves nothing\n"; exit 1 }
    exit($bad ? 1 : 0);
  }
' $(find Sources/Affix -name '*.swift' | sort) || { echo "process-locks: FAILED" >&2; exit 1; }
echo "process-locks: every process-wide lock of the core joins ProcessLocks"
