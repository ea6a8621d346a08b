// swift-tools-version: 6.1
import PackageDescription

// A third party's mixin, in a package of its own that depends on Affix by path (the repository
// three levels up) and uses its public API alone: the proof that a mixin written outside the
// library can do what the built-ins do. Built and tested by .ci/third-party-mixin.sh.
let package = Package(
  name: "ThirdPartyMixin",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Affix", path: "../../..")],
  targets: [
    .target(
      name: "Blink",
      dependencies: [
        .product(name: "Affix", package: "Affix"),
        .product(name: "AffixScheduling", package: "Affix"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]),
    // A third party's layout, on AffixLayout's public API alone.
    .target(
      name: "Shelf",
      dependencies: [
        .product(name: "Affix", package: "Affix"),
        .product(name: "AffixLayout", package: "Affix"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]),
    .testTarget(
      name: "ShelfTests",
      dependencies: ["Shelf", .product(name: "AffixLayout", package: "Affix")],
      swiftSettings: [.swiftLanguageMode(.v6)]),
    .testTarget(
      name: "BlinkTests",
      dependencies: [
        "Blink",
        .product(name: "AffixScheduling", package: "Affix"),
        .product(name: "AffixTesting", package: "Affix"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6)]),
  ]
)
