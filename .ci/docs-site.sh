#!/usr/bin/env bash
# The documentation of every library module as one static site, and proof that a browser
# renders it: DocC pages are drawn by script from JSON, so a page that builds can still show
# nothing.
#
# usage: bash .ci/docs-site.sh build   converts each module's catalog, warnings as errors, into
#                                      .build/docs-site/<Module> for static hosting, and writes
#                                      the landing page that links them
#        bash .ci/docs-site.sh check   serves the site on loopback and has headless Chromium
#                                      open the landing page, every module's page and a guide: each
#                                      must render its title with no console error, and leaves
#                                      a screenshot in .build/docs-site-screenshots
#
# To read the site: bash .ci/docs-site.sh build, then
# python3 -m http.server --directory .build/docs-site and open http://localhost:8000.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source .ci/package.sh
site=.build/docs-site
fail() {
  echo "docs-site: $*" >&2
  exit 1
}

mode="${1:-}"
case "$mode" in build | check) ;; *) fail "usage: bash .ci/docs-site.sh build|check" ;; esac

if [ "$mode" = build ]; then
  # The Swift Package Index builds the catalogs .spi.yml names: every library product's.
  spi_targets=$(sed -nE 's/.*documentation_targets: *\[(.*)\].*/\1/p' .spi.yml | tr -d ' ' \
    | tr ',' '\n' | sort)
  products=$(printf '%s\n' "${library_products[@]}" | sort)
  [ "$spi_targets" = "$products" ] \
    || fail ".spi.yml's documentation_targets ($(echo $spi_targets)) are not the library products ($(echo $products))"
  # The graphs are a side effect of compiling, so they live beside the build that made them.
  graphs=.build/docs/symbol-graphs
  rm -rf "$graphs"/Affix*
  [ -f "$graphs/all/Affix.symbols.json" ] || rm -rf .build/docs  # a cached build emits none
  swift build --scratch-path .build/docs -Xswiftc -emit-symbol-graph \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs/all"
  rm -rf "$site"
  mkdir -p "$site"
  for module in "${library_products[@]}"; do
    catalog="Sources/$module/$module.docc"
    [ -d "$catalog" ] || fail "$module has no DocC catalog at $catalog"
    mkdir -p "$graphs/$module"
    cp "$graphs/all/$module.symbols.json" "$graphs/$module/"
    cp "$graphs/all/$module"@*.symbols.json "$graphs/$module/" 2>/dev/null || true
    # Each module under its own name, so that one server holds them all.
    docc convert "$catalog" --additional-symbol-graph-dir "$graphs/$module" \
      --fallback-display-name "$module" --fallback-bundle-identifier "org.affix.$module" \
      --transform-for-static-hosting --hosting-base-path "$module" \
      --output-path "$site/$module" --warnings-as-errors >/dev/null \
      || fail "DocC for $module"
    echo "docs: $module"
  done
  # The landing page: one link per module, to the page DocC made of its catalog's root.
  {
    echo '<!doctype html>'
    echo '<html lang="en"><head><meta charset="utf-8"><title>Affix documentation</title></head>'
    echo '<body><h1>Affix documentation</h1><ul>'
    for module in "${library_products[@]}"; do
      lower=$(tr '[:upper:]' '[:lower:]' <<<"$module")
      echo "<li><a href=\"$module/documentation/$lower/\">$module</a></li>"
    done
    echo '</ul></body></html>'
  } >"$site/index.html"
  echo "docs-site: $site/index.html links ${#library_products[@]} modules"
  exit 0
fi

for module in "${library_products[@]}"; do
  [ -f "$site/$module/index.html" ] || fail "$site/$module holds no site: run with build first"
done

if ! command -v chromium >/dev/null 2>&1; then
  # Debian's package; CI machines reach Debian's registry.
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo -n)
  if command -v apt-get >/dev/null 2>&1; then
    "${as_root[@]}" apt-get update -qq >/dev/null \
      && "${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium >/dev/null \
      || fail "could not install Debian's chromium package"
  fi
  command -v chromium >/dev/null 2>&1 || fail "no chromium: install Debian's chromium package"
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/')" \
    2>/dev/null && break
  sleep 0.1
done

shots=.build/docs-site-screenshots
rm -rf "$shots"
mkdir -p "$shots"
# Opens `path`, waits for its scripts, and checks that the rendered page has `title` and
# that its console reported no error.
check_page() {
  local name=$1 path=$2 title=$3
  local url="http://127.0.0.1:$port/$path" log="$shots/$name.log"
  local browser=(chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0
    --virtual-time-budget=15000 --window-size=1280,1000)
  timeout 120 "${browser[@]}" --dump-dom "$url" >"$shots/$name.html" 2>"$log" \
    || fail "$name: chromium could not open $url"
  timeout 120 "${browser[@]}" --screenshot="$PWD/$shots/$name.png" "$url" >/dev/null 2>>"$log" \
    || fail "$name: chromium took no screenshot of $url"
  grep -q "<title>$title" "$shots/$name.html" \
    || fail "$name: $url rendered no page titled '$title' (see $shots/$name.html)"
  if grep 'CONSOLE' "$log" | grep -Eiq 'error|uncaught|failed'; then
    grep 'CONSOLE' "$log" >&2
    fail "$name: the console of $url reported an error"
  fi
  [ -s "$shots/$name.png" ] || fail "$name: the screenshot is empty"
  echo "docs-site: $name rendered ($url), screenshot $shots/$name.png"
}

check_page landing "" "Affix documentation"
for module in "${library_products[@]}"; do
  lower=$(tr '[:upper:]' '[:lower:]' <<<"$module")
  check_page "$lower" "$module/documentation/$lower/" "$module | Documentation"
done
check_page dancing-guide "AffixDancing/documentation/affixdancing/dancingguide" \
  "Dancing guide | Documentation"
