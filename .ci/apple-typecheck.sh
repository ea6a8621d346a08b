#!/usr/bin/env bash
# Type-checks, on Linux, every branch of Sources/ that only Apple platforms compile: each
# `#if canImport(ObjectiveC)`, `canImport(UIKit)`, `canImport(AppKit)` and `canImport(Darwin)`
# block of the Swift modules, the `__APPLE__` branches of the C shims, and whatever those
# chains leave to Apple platforms in an `#else`.
#
# How:
# - Swift. Sources/ is copied to a scratch directory (.build/apple-typecheck) and only the
#   lines of its `#if` / `#elseif` conditions are rewritten, by the fixed table below, so that
#   the Apple branches are the active ones. Each module that holds such a branch, and each
#   module it depends on, is then compiled in the manifest's order (`swiftc -emit-module`,
#   whole module, with each target's own Swift settings: Swift 6 mode, the upcoming features)
#   against stand-in modules named `Darwin`, `ObjectiveC`, `QuartzCore`, `UIKit` and `AppKit`
#   (.ci/apple-standins), found ahead of the toolchain's through `-I`. Every file is compiled
#   with Objective-C interoperability enabled, as on Apple platforms, so `@objc` and
#   `#selector` are checked too. Two flavours: an iPhone (UIKit, arm64, the shipped
#   configuration: no DEBUG, no test seams) and an Intel Mac (AppKit, x86_64, DEBUG and the
#   `TestSeams` trait, as `swift test --traits TestSeams` builds there), so that every branch of
#   an `#if arch(x86_64) && os(macOS)` or an `#if TestSeams` inside an Apple block is active
#   in one of them.
# - C. The shims' sources, unchanged, get `clang -fsyntax-only` once per Apple target the
#   manifest declares (the real target triple, so clang predefines `__APPLE__`, the
#   architecture and the pointer size as Xcode's clang does), with no system header of this
#   machine: the C library headers they include are transcriptions of Apple's
#   (.ci/apple-standins/include).
# - Coverage, counted: after the line that opens each Apple-only branch, the scratch copy gets a
#   `#warning("apple-only block FILE:LINE")`. The check fails unless every such branch reports
#   its warning in at least one flavour or target (a branch no flavour selects would otherwise
#   pass unseen), unless every `#if` line of Sources/ that names an Apple module or
#   `__APPLE__` (counted by grep, independently of the rewrite) is among them, and unless
#   every platform condition of Sources/ is in the rewrite table (a new one, `os(watchOS)`,
#   `canImport(SwiftUI)`, fails until the table says what it is on Apple platforms). Any other
#   warning fails the check, as `-warnings-as-errors` would.
#
# Why a scratch copy rather than a switch the package could see (a trait or a `-D` define
# that Apple branches would test beside `canImport`):
# - What ships stays exactly what Apple platforms compile. A switch would put a second
#   condition on every Apple-only `#if` (`#if canImport(UIKit) || AFFIX_APPLE_CHECK`), one that
#   only this check ever sets: the check would then verify the switched condition, and a
#   mistake in the real one (`canImport(UIkit)`) would pass it.
# - The stand-ins must never reach a package graph. Selecting Apple branches on Linux through
#   SwiftPM means giving it modules named `Darwin` and `UIKit` to link; on a Mac those names
#   would collide with the SDK's. Here they live in .ci and on one `-I` path of one script.
# - A user could enable a package trait; nobody can enable this script by accident.
# The rewrite touches conditions only, and the script checks it: the scratch copy differs from
# Sources/ in `#if` / `#elseif` lines and the inserted warnings, nothing else.
#
# `AFFIX_APPLE_SOURCES=dir` checks another copy of Sources/ (how the deliberate-error test is
# run: copy Sources/, break a line inside an Apple block, point this at the copy).
#
# usage: bash .ci/apple-typecheck.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
source .ci/package.sh

sources=$(cd "${AFFIX_APPLE_SOURCES:-$root/Sources}" && pwd)
standins="$root/.ci/apple-standins"
work="$root/.build/apple-typecheck"
rm -rf "$work"
mkdir -p "$work"

fail() {
  printf 'apple-typecheck: FAILED: %s\n' "$*" >&2
  exit 1
}

# The Apple targets of the manifest, for clang: one triple each, and the simulators' too.
c_targets=(
  arm64-apple-macos15 x86_64-apple-macos15
  arm64-apple-ios18 arm64-apple-ios18-simulator x86_64-apple-ios18-simulator
  arm64-apple-tvos18 arm64-apple-tvos18-simulator
  arm64-apple-xros2 arm64-apple-xros2-simulator
)
declared_platforms=$(perl -MJSON::PP -e '
  my $package = decode_json(do { local $/; <STDIN> });
  print join(" ", sort map { "$_->{platformName}$_->{version}" } @{ $package->{platforms} }), "\n"' \
  <<<"$affix_package_json")
[ "$declared_platforms" = "ios18.0 macos15.0 tvos18.0 visionos2.0" ] \
  || fail "Package.swift declares '$declared_platforms'; update c_targets and the flavours here"

# ---------------------------------------------------------------------------------------------
# The rewrite. Reads one file, writes its scratch copy, and writes one line per Apple-only
# branch ("FILE:LINE") to descriptor 3.
#
#   perl -e "$rewrite_program" FLAVOUR LANGUAGE REWRITE MARK RELATIVE-PATH < source > copy 3>> blocks
#
# FLAVOUR is ios or macos; LANGUAGE swift or c; REWRITE 1 replaces the platform conditions by
# their value in FLAVOUR (for the Swift pass, whose clang importer reads the shims' headers
# too); MARK 1 inserts the warnings.
rewrite_program='
use strict; use warnings;
open(my $blocks, ">>&=", 3) or die "descriptor 3: $!\n";
my ($flavour, $language, $rewrite, $mark, $file) = @ARGV;
my $ios = $flavour eq "ios";
# Every platform condition Sources/ may use, and its value on the flavour: an iPhone (arm64,
# UIKit) or an Intel Mac (x86_64, AppKit). A condition missing here stops the check.
my %swift = (
  "canImport(Darwin)" => 1, "canImport(ObjectiveC)" => 1, "canImport(QuartzCore)" => 1,
  "canImport(UIKit)" => $ios, "canImport(AppKit)" => !$ios,
  "canImport(Glibc)" => 0, "canImport(Musl)" => 0, "canImport(WinSDK)" => 0,
  "os(macOS)" => !$ios, "os(iOS)" => $ios, "os(tvOS)" => 0, "os(visionOS)" => 0,
  "os(watchOS)" => 0, "os(Linux)" => 0, "os(Windows)" => 0, "os(FreeBSD)" => 0,
  "os(Android)" => 0, "os(WASI)" => 0,
  "targetEnvironment(macCatalyst)" => 0, "targetEnvironment(simulator)" => 0,
  "_runtime(_ObjC)" => 1, "_runtime(_Native)" => 0,
  "arch(x86_64)" => !$ios, "arch(arm64)" => $ios, "arch(i386)" => 0, "arch(arm)" => 0,
  "arch(arm64_32)" => 0, "arch(wasm32)" => 0, "arch(powerpc64le)" => 0, "arch(s390x)" => 0,
);
my %c = (
  "defined(__APPLE__)" => 1, "defined(__MACH__)" => 1,
  "defined(__linux__)" => 0, "defined(__GLIBC__)" => 0, "defined(_WIN32)" => 0,
);
# What makes a condition Apple-only, and what makes an `#else` left to Apple platforms.
my $apple = $language eq "swift"
  ? qr/canImport\((?:Darwin|ObjectiveC|QuartzCore|UIKit|AppKit)\)|os\((?:macOS|iOS|tvOS|visionOS|watchOS)\)|targetEnvironment\(macCatalyst\)|_runtime\(_ObjC\)/
  : qr/__APPLE__|__MACH__/;
my $elsewhere = $language eq "swift"
  ? qr/canImport\((?:Glibc|Musl)\)|os\(Linux\)/
  : qr/__linux__|__GLIBC__/;
my $platform = $language eq "swift"
  ? qr/\b(?:canImport|os|arch|targetEnvironment|_runtime)\([^)]*\)/
  : qr/defined\(\s*__(?:APPLE|MACH|linux|GLIBC|gnu_linux|unix|FreeBSD|ANDROID)__\s*\)|defined\(\s*_WIN32\s*\)/;
my $directive = $language eq "swift"
  ? qr/^(\s*)#(if|elseif|else|endif)\b(.*)$/
  : qr/^(\s*)#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$/;
my $table = $language eq "swift" ? \%swift : \%c;
# One frame per open `#if`: whether its enclosing branch is Apple-only, and whether every
# condition of the chain so far names only non-Apple platforms.
my @chains;
my $line = 0;
while (my $text = <STDIN>) {
  $line++;
  if ($text =~ $directive) {
    my ($indent, $keyword, $condition) = ($1, $2, $3);
    if ($keyword =~ /^ifn?def$/) {
      # `#ifdef NAME` is `#if defined(NAME)`: written so, so that the table applies to it.
      my $not = $keyword eq "ifndef" ? "!" : "";
      $condition =~ s/^\s*(\w+)/ ${not}defined($1)/;
      $text = "$indent#if$condition\n" if $condition =~ $platform;
    }
    $keyword = "if" if $keyword =~ /^ifn?def$/;
    $keyword = "elseif" if $keyword eq "elif";
    my $inside = @chains && $chains[-1]{branch};
    if ($keyword eq "endif") { pop @chains; print $text; next }
    my $branch;
    if ($keyword eq "else") {
      my $chain = $chains[-1] or die "$file:$line: #else without #if\n";
      $branch = $chain->{outer} || $chain->{elsewhere};
    } else {
      my @names = $condition =~ /($platform)/g;
      for my $name (@names) {
        (my $key = $name) =~ s/\s+//g;
        die "$file:$line: platform condition $key is not in the table of .ci/apple-typecheck.sh\n"
          unless exists $table->{$key};
      }
      # A platform named only behind `!` (`#if !canImport(ObjectiveC)`) leaves the branch to
      # the other platforms, and its `#else` to Apple platforms.
      my $named = $condition =~ /(?<!!)(?:$apple)/;
      my $only_elsewhere = !$named && ($condition =~ $elsewhere || $condition =~ /!\s*(?:$apple)/);
      if ($keyword eq "if") {
        push @chains, { outer => $inside, elsewhere => $only_elsewhere };
        $branch = $inside || $named;
      } else {
        my $chain = $chains[-1] or die "$file:$line: #elseif without #if\n";
        $chain->{elsewhere} &&= $only_elsewhere;
        $branch = $chain->{outer} || $named;
      }
      if ($rewrite) {
        $text =~ s{($platform)}{ (my $key = $1) =~ s/\s+//g;
          $language eq "swift" ? ($table->{$key} ? "true" : "false") : ($table->{$key} ? "1" : "0") }ge;
      }
    }
    $chains[-1]{branch} = $branch;
    print $text;
    if ($branch && $mark) {
      print $language eq "swift"
        ? "$indent  #warning(\"apple-only block $file:$line\")\n"
        : "#warning \"apple-only block $file:$line\"\n";
      print $blocks "$file:$line\n";
    }
    next;
  }
  print $text;
}
die "$file: unbalanced #if\n" if @chains;
'

# Copies the Swift (if `with_swift` is 1), C and header files of `sources` into `destination`,
# through the rewrite.
copy_sources() {
  local flavour=$1 destination=$2 rewrite_c=$3 mark_c=$4 blocks=$5 with_swift=$6
  local path relative language rewrite mark
  : >"$blocks"
  while IFS= read -r path; do
    relative=${path#"$sources"/}
    mkdir -p "$destination/$(dirname "$relative")"
    case "$path" in
      *.swift)
        [ "$with_swift" = 1 ] || continue
        language=swift rewrite=1 mark=1
        ;;
      *) language=c rewrite=$rewrite_c mark=$mark_c ;;
    esac
    perl -e "$rewrite_program" "$flavour" "$language" "$rewrite" "$mark" "Sources/$relative" \
      <"$path" >"$destination/$relative" 3>>"$blocks" || fail "rewriting Sources/$relative"
  done < <(find "$sources" -type f \( -name '*.swift' -o -name '*.c' -o -name '*.h' \) | sort)
}

# Prints a compiler log with its scratch paths and line numbers mapped back to Sources/ (each
# inserted warning shifts the lines after it by one).
show_log() {
  local log=$1 copy=$2 blocks=$3
  perl -e '
    my ($copy, $blocks) = @ARGV;
    my %markers;
    open(my $in, "<", $blocks) or die "$blocks: $!\n";
    while (<$in>) { chomp; my ($file, $line) = /^(.*):(\d+)$/ or next; push @{ $markers{$file} }, $line }
    for my $file (keys %markers) {
      my @sorted = sort { $a <=> $b } @{ $markers{$file} };
      $markers{$file} = [ map { $sorted[$_] + $_ + 1 } 0 .. $#sorted ];
    }
    while (my $text = <STDIN>) {
      $text =~ s{\Q$copy\E/([^:\s]+):(\d+)}{
        my ($file, $line) = ("Sources/$1", $2);
        my $shift = grep { $_ < $line } @{ $markers{$file} // [] };
        "$file:" . ($line - $shift) }ge;
      print $text;
    }' "$copy" "$blocks" <"$log"
}

# ---------------------------------------------------------------------------------------------
# Swift: the modules to compile, in the manifest's order, with their settings.
module_plan=$(perl -MJSON::PP -e '
  my $package = decode_json(do { local $/; <STDIN> });
  for my $target (@{ $package->{targets} }) {
    next unless $target->{type} eq "regular" || $target->{type} eq "executable";
    my @dependencies = map { $_->{byName}[0] // $_->{target}[0] // $_->{product}[0] }
      @{ $target->{dependencies} };
    my @flags;
    for my $setting (@{ $target->{settings} }) {
      next unless $setting->{tool} eq "swift";
      my ($kind, $value) = %{ $setting->{kind} };
      my $when = $setting->{condition}{traits} ? join(",", @{ $setting->{condition}{traits} }) : "";
      my $flag = $kind eq "swiftLanguageMode" ? "-swift-version=$value->{_0}"
        : $kind eq "enableUpcomingFeature" ? "-enable-upcoming-feature=$value->{_0}"
        : $kind eq "enableExperimentalFeature" ? "-enable-experimental-feature=$value->{_0}"
        : $kind eq "define" ? "-D=$value->{_0}"
        : die "Swift setting $kind of $target->{name} is unknown to .ci/apple-typecheck.sh\n";
      push @flags, $when ? "$when?$flag" : $flag;
    }
    my $path = $target->{path} // "Sources/$target->{name}";
    print join("|", $target->{name}, $target->{type}, $path, join(",", @dependencies),
      join(" ", @flags)), "\n";
  }' <<<"$affix_package_json")

# Modules of Sources/ that hold an Apple-only branch, and everything they depend on.
apple_files=$(grep -rlE '^\s*#(if|elseif)\b.*(canImport|os|targetEnvironment|_runtime)\(' \
  --include='*.swift' "$sources" | sed "s|^$sources/|Sources/|" | sort)
needed=()
mark_needed() {
  local name=$1 line dependency
  for existing in "${needed[@]}"; do [ "$existing" = "$name" ] && return 0; done
  needed+=("$name")
  line=$(grep -m1 "^$name|" <<<"$module_plan") || return 0
  IFS=',' read -r -a dependencies <<<"$(cut -d'|' -f4 <<<"$line")"
  for dependency in "${dependencies[@]}"; do [ -n "$dependency" ] && mark_needed "$dependency"; done
}
for file in $apple_files; do
  module=$(cut -d/ -f2 <<<"$file")
  grep -q "^$module|" <<<"$module_plan" || fail "$file is in no target of the manifest"
  mark_needed "$module"
done

# The stand-ins, compiled per flavour: QuartzCore differs (`CADisplayLink.init(target:selector:)`
# is unavailable on macOS), and each flavour sees only its own UI framework.
compile_standins() {
  local flavour=$1 out=$2
  local defines=() ui=UIKit
  [ "$flavour" = macos ] && defines=(-D STANDIN_MACOS) && ui=AppKit
  mkdir -p "$out"
  for module in DarwinTypes Darwin ObjectiveC QuartzCore "$ui"; do
    swiftc -frontend -emit-module -parse-as-library -module-name "$module" \
      -swift-version 6 -enable-objc-interop -disable-objc-attr-requires-foundation-module \
      "${defines[@]}" -I "$out" "$standins/$module.swift" -o "$out/$module.swiftmodule" \
      || fail "the stand-in $module does not compile ($flavour)"
  done
}

# Compiles the needed modules of one flavour's scratch copy; prints the compiler's output.
compile_flavour() {
  local flavour=$1 copy=$2 out=$3 log=$4
  local traits=() name type path dependencies flags compiled=()
  [ "$flavour" = macos ] && traits=(TestSeams)
  : >"$log"
  # The C module the core imports, as SwiftPM maps a target with an umbrella header.
  printf 'module AffixRuntimeShims {\n  umbrella header "AffixRuntimeShims.h"\n  export *\n}\n' \
    >"$copy/AffixRuntimeShims/include/module.modulemap"
  printf 'module AffixBenchSupport {\n  umbrella header "AffixBenchSupport.h"\n  export *\n}\n' \
    >"$copy/AffixBenchSupport/include/module.modulemap"
  while IFS='|' read -r name type path dependencies flags; do
    local wanted=0
    for existing in "${needed[@]}"; do [ "$existing" = "$name" ] && wanted=1; done
    [ "$wanted" = 1 ] || continue
    case "$path" in Sources/*) ;; *) fail "$name, needed here, is not under Sources/" ;; esac
    local module_dir="$copy/${path#Sources/}"
    # A C target: Swift reads its headers through the module map above.
    # `-print -quit` rather than `find | grep -q`: grep quitting at its first line kills find
    # with SIGPIPE on a large module, and under pipefail that read as "no Swift file here".
    [ -n "$(find "$module_dir" -name '*.swift' -print -quit)" ] || continue
    local arguments=()
    for flag in $flags; do
      local condition=""
      if [[ "$flag" == *"?"* ]]; then condition=${flag%%\?*} flag=${flag#*\?}; fi
      if [ -n "$condition" ]; then
        local on=0
        for trait in "${traits[@]}"; do [[ ",$condition," == *",$trait,"* ]] && on=1; done
        [ "$on" = 1 ] || continue
      fi
      arguments+=("${flag%%=*}" "${flag#*=}")
    done
    for trait in "${traits[@]}"; do arguments+=(-D "$trait"); done
    [ "$flavour" = macos ] && arguments+=(-D DEBUG)
    [ "$type" = executable ] || arguments+=(-parse-as-library)
    local files=()
    mapfile -t files < <(find "$module_dir" -name '*.swift' | sort)
    printf '  %s (%s)\n' "$name" "$flavour"
    compiled+=("$name")
    # `-emit-module` with whole-module checking type-checks every body; `-emit-sil` runs the
    # diagnostic passes after it (definite initialization, the region checks of Swift 6's
    # concurrency), which a plain type-check would skip. A module whose Apple branches use
    # `@objc` or `#selector` needs Objective-C interoperability, which this toolchain's
    # standard library, built without it, supports for type-checking only (its pointer
    # conversions look for `AutoreleasingUnsafeMutablePointer`, which exists only with it):
    # such a module is type-checked with it, and no other is.
    # Never `-o /dev/null`: a failing compile deletes its output file, and as root that is the
    # device itself.
    local mode=(-emit-sil -o "$out/$name.sil")
    if grep -qE '@objc|#selector' "${files[@]}"; then
      mode=(-Xfrontend -enable-objc-interop -Xfrontend -disable-objc-attr-requires-foundation-module)
    fi
    if ! swiftc -emit-module -emit-module-path "$out/$name.swiftmodule" "${mode[@]}" \
      -wmo -module-name "$name" -package-name affix "${arguments[@]}" \
      -I "$out" -I "$work/standins-$flavour" \
      -Xcc -fmodule-map-file="$copy/AffixRuntimeShims/include/module.modulemap" \
      -Xcc -fmodule-map-file="$copy/AffixBenchSupport/include/module.modulemap" \
      "${files[@]}" >>"$log" 2>&1; then
      show_log "$log" "$copy" "$work/blocks-$flavour"
      fail "$name does not compile with its Apple branches ($flavour)"
    fi
  done <<<"$module_plan"
  # Every needed module with Swift sources was compiled: none skipped unseen.
  for name in "${needed[@]}"; do
    local path
    path=$(grep -m1 "^$name|" <<<"$module_plan" | cut -d'|' -f3) || continue
    [ -n "$(find "$copy/${path#Sources/}" -name '*.swift' -print -quit)" ] || continue
    [[ " ${compiled[*]} " == *" $name "* ]] || fail "$name was needed but not compiled ($flavour)"
  done
}

printf 'apple-typecheck: Swift, %s, against .ci/apple-standins\n' "${needed[*]}"
swift_blocks="$work/swift-blocks"
: >"$work/reported"
for flavour in ios macos; do
  copy="$work/$flavour/Sources"
  copy_sources "$flavour" "$copy" 1 0 "$work/blocks-$flavour" 1
  compile_standins "$flavour" "$work/standins-$flavour"
  compile_flavour "$flavour" "$copy" "$work/$flavour/modules" "$work/$flavour.log"
  grep -oE 'apple-only block [^"]+' "$work/$flavour.log" | sed 's/^apple-only block //' \
    >>"$work/reported" || true
  # Every other warning fails, as with -warnings-as-errors (a marker's own note lines aside).
  other=$(grep -E 'warning:' "$work/$flavour.log" | grep -v 'apple-only block' || true)
  [ -z "$other" ] || {
    show_log "$work/$flavour.log" "$copy" "$work/blocks-$flavour"
    fail "warnings in the Apple branches ($flavour)"
  }
done
sort -u "$work/blocks-ios" "$work/blocks-macos" >"$swift_blocks"

# ---------------------------------------------------------------------------------------------
# C: the shims, unchanged but for the warnings, once per Apple target.
printf 'apple-typecheck: C, %s targets, against .ci/apple-standins/include\n' "${#c_targets[@]}"
c_copy="$work/c/Sources"
copy_sources ios "$c_copy" 0 1 "$work/blocks-c" 0
resource_include="$(clang -print-resource-dir)/include"
c_files=()
mapfile -t c_files < <(cd "$c_copy" && find . -name '*.c' | sed 's|^\./||' | sort)
[ "${#c_files[@]}" -gt 0 ] || fail "no C file under Sources/"
: >"$work/c.log"
for target in "${c_targets[@]}"; do
  for file in "${c_files[@]}"; do
    module=${file%%/*}
    for defines in "" "-DAFFIX_TEST_SEAMS"; do
      # -nostdlibinc: clang's own headers and the transcribed Apple ones, none of this machine's.
      if ! clang -fsyntax-only -Werror -Wno-error=\#warnings -target "$target" -nostdlibinc \
        -isystem "$resource_include" -isystem "$standins/include" \
        -I "$c_copy/$module/include" $defines "$c_copy/$file" >>"$work/c.log" 2>&1; then
        show_log "$work/c.log" "$c_copy" "$work/blocks-c"
        fail "Sources/$file does not compile for $target${defines:+ ($defines)}"
      fi
    done
  done
done
grep -oE 'apple-only block [^"]+' "$work/c.log" | sed 's/^apple-only block //' \
  >>"$work/reported" || true
other=$(grep -E 'warning:' "$work/c.log" | grep -v 'apple-only block' || true)
[ -z "$other" ] || {
  show_log "$work/c.log" "$c_copy" "$work/blocks-c"
  fail "warnings in the C shims' Apple branches"
}

# ---------------------------------------------------------------------------------------------
# Coverage. Every branch the rewrite marked was compiled somewhere...
marked=$(sort -u "$swift_blocks" "$work/blocks-c")
reported=$(sort -u "$work/reported")
missing=$(comm -23 <(printf '%s\n' "$marked") <(printf '%s\n' "$reported"))
[ -z "$missing" ] || {
  printf '  %s\n' $missing
  fail "Apple-only branches that no flavour or target compiled (above)"
}
# ...and grep, independently of the rewrite, finds no Apple `#if` that was not marked: each
# `#if` / `#elseif` naming canImport(ObjectiveC | UIKit | AppKit | Darwin) in Swift, and each
# `#if` / `#elif` naming __APPLE__ in C.
counted=$(cd "$sources/.." && {
  grep -rnE '^\s*#(if|elseif)\b.*canImport\((ObjectiveC|UIKit|AppKit|Darwin)\)' \
    --include='*.swift' "$(basename "$sources")" || true
  grep -rnE '^\s*#\s*(if|elif)\b.*__APPLE__' --include='*.c' --include='*.h' \
    "$(basename "$sources")" || true
} | grep -vE ':\s*#(if|elseif)\s+!canImport\((ObjectiveC|UIKit|AppKit|Darwin)\)\s*$' \
  | cut -d: -f1,2 | sed 's|^[^/]*/|Sources/|' | sort -u)
count=$(grep -c . <<<"$counted" || true)
[ "$count" -gt 0 ] || fail "grep finds no Apple-only block in Sources/: the check proves nothing"
unmarked=$(comm -23 <(printf '%s\n' "$counted") <(printf '%s\n' "$marked"))
[ -z "$unmarked" ] || {
  printf '  %s\n' $unmarked
  fail "Apple-only blocks the check does not cover (above)"
}
# ...and the scratch copies differ from Sources/ in `#if` lines and the warnings alone.
for copy in "$work/ios/Sources" "$work/macos/Sources" "$c_copy"; do
  changed=$(diff -r "$sources" "$copy" | grep -E '^[<>]' \
    | grep -vE '^[<>]\s*#\s*(if|ifdef|ifndef|elseif|elif)\b' | grep -v 'apple-only block' || true)
  [ -z "$changed" ] || {
    printf '%s\n' "$changed"
    fail "the rewrite changed more than conditions in ${copy#"$work"/}"
  }
done

printf 'apple-typecheck: %s Apple-only blocks counted by grep, %s branches compiled (%s Swift, %s C)\n' \
  "$count" "$(grep -c . <<<"$marked")" "$(grep -c . "$swift_blocks")" \
  "$(grep -c . "$work/blocks-c" || true)"
