import Affix

/// Which stored properties of a type hold their value strongly.
///
/// `Mirror` loads `weak` and `unowned` properties as if they were strong, so a path finder built
/// on it alone would report cycles that weak back-references already break. The runtime knows
/// each field's ownership; the reflection entry points below are the ones the standard library's
/// own field walkers call (exported and ABI-stable on every platform that has a Swift runtime).
enum FieldOwnership {
  private static let cache = LockedState<[ObjectIdentifier: Set<String>]>([:])

  /// The names of the stored properties of `type` (including inherited ones) that are neither
  /// `weak` nor `unowned`.
  static func nonStrongFieldNames(of type: any Any.Type) -> Set<String> {
    let key = ObjectIdentifier(type)
    if let known = cache.withLock({ $0[key] }) {
      return known
    }
    var names: Set<String> = []
    for index in 0..<recursiveChildCount(type) {
      var field = FieldMetadata()
      _ = recursiveChildMetadata(type, index: index, fieldMetadata: &field)
      if !field.isStrong, let name = field.name {
        names.insert(String(cString: name))
      }
      field.freeFunc?(field.name)
    }
    let result = names
    cache.withLock { $0[key] = result }
    return result
  }
}

/// Mirrors the runtime's `_FieldReflectionMetadata` layout.
private struct FieldMetadata {
  var name: UnsafePointer<CChar>? = nil
  var freeFunc: (@convention(c) (_ name: UnsafePointer<CChar>?) -> Void)? = nil
  var isStrong = true
  var isVar = false
}

@_silgen_name("swift_reflectionMirror_recursiveCount")
private func recursiveChildCount(_ type: any Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func recursiveChildMetadata(
  _ type: any Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<FieldMetadata>
) -> any Any.Type
