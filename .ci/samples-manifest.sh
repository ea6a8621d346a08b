# Sourced by doc-samples.sh: the manifest of a package of sample programs, one executable
# target each, that depends on every public library of Affix. (The README's samples are built
# with the README's own manifest instead: see readme-samples.sh.)

# write_samples_manifest PACKAGE_NAME AFFIX_ROOT SAMPLE... : the manifest, on standard output.
write_samples_manifest() {
  local name="$1" root="$2"
  shift 2
  local product sample
  echo '// swift-tools-version: 6.1'
  echo 'import PackageDescription'
  echo 'let affix: [Target.Dependency] = ['
  # `library_products`: from .ci/package.sh, which the sourcing script has read.
  for product in "${library_products[@]}"; do
    echo "  .product(name: \"$product\", package: \"$(basename "$root")\"),"
  done
  echo ']'
  echo 'let package = Package('
  echo "  name: \"$name\","
  echo '  platforms: [.macOS(.v15), .iOS(.v18)],'
  echo "  dependencies: [.package(path: \"$root\")],"
  echo '  targets: ['
  for sample in "$@"; do
    echo "    .executableTarget(name: \"$sample\", dependencies: affix,"
    echo '      swiftSettings: [.swiftLanguageMode(.v6)]),'
  done
  echo '  ]'
  echo ')'
}
