# Sourced by every CI script: finds the toolchain and reads the package's module lists from
# its manifest (`swift package dump-package`), so that no script keeps a list of its own.
#
# After sourcing, with `root` set to the repository:
#   library_products  the library products, in the manifest's order (Affix first)
#   test_targets      every test target
#   mixin_modules     the library products built on Affix's public API alone: all but Affix
#                     itself and AffixTesting, which may use Affix's package API

# The toolchain: `swift` on PATH, else the one $SWIFT_TOOLCHAIN names, else the CI image's.
if ! command -v swift >/dev/null 2>&1; then
  for bin in "${SWIFT_TOOLCHAIN:+$SWIFT_TOOLCHAIN/usr/bin}" /opt/swift/usr/bin; do
    if [ -n "$bin" ] && [ -x "$bin/swift" ]; then
      export PATH="$bin:$PATH"
      break
    fi
  done
fi
command -v swift >/dev/null 2>&1 || {
  echo "no swift: put the toolchain's usr/bin on PATH, or set SWIFT_TOOLCHAIN" >&2
  exit 1
}

# Read once per process; perl's JSON::PP ships with perl itself.
if [ -z "${affix_package_json:-}" ]; then
  affix_package_json=$(swift package --package-path "$root" dump-package)
  export affix_package_json
fi

package_list() {
  perl -MJSON::PP -e '
    my $package = decode_json(do { local $/; <STDIN> });
    my $what = $ARGV[0];
    if ($what eq "library_products") {
      print "$_->{name}\n" for grep { exists $_->{type}{library} } @{ $package->{products} };
    } elsif ($what eq "test_targets") {
      print "$_->{name}\n" for grep { $_->{type} eq "test" } @{ $package->{targets} };
    }' "$1" <<<"$affix_package_json"
}

mapfile -t library_products < <(package_list library_products)
mapfile -t test_targets < <(package_list test_targets)
mixin_modules=()
for product in "${library_products[@]}"; do
  case "$product" in Affix | AffixTesting) ;; *) mixin_modules+=("$product") ;; esac
done
[ "${#library_products[@]}" -gt 0 ] && [ "${#test_targets[@]}" -gt 0 ] || {
  echo "the manifest lists no library products or no test targets" >&2
  exit 1
}
