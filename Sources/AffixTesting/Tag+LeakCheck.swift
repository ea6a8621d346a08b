public import Testing

extension Tag {
  /// Marks a test as a leak check: a test that pins who owns what and that everything is
  /// released when its owner goes.
  ///
  /// `swift package leak-check` runs every test tagged so, or inside a suite tagged so, in any
  /// test target of the package, and every test marked with ``LeakCheckTrait`` too.
  ///
  /// ```swift
  /// @Test(.tags(.leakCheck))
  /// func releasingTheHostReleasesItsSpinner() { ... }
  /// ```
  @Tag public static var leakCheck: Tag
}
