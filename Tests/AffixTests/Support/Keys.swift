import Affix

/// A key whose value is optional, named by its wrapped type, so that keys of one value type can
/// sit in an array (`[any OptionalKey<Int>.Type]`) and be used through it.
protocol OptionalKey<Wrapped>: AssociatedKey, SendableMetatype where Value == Wrapped? {
  associatedtype Wrapped
}

/// One key of a family, told apart from the others by `Tag`: `Slot<Root, Int>`,
/// `Slot<Next<Root>, Int>`, … are distinct keys holding `Int?`.
enum Slot<Tag, Stored>: OptionalKey {
  typealias Value = Stored?
  typealias Wrapped = Stored
}

/// As ``Slot``, with the value held weakly.
enum WeakSlot<Tag>: OptionalKey {
  typealias Value = Tracked?
  typealias Wrapped = Tracked
  static var policy: AssociationPolicy { .weak }
}

/// The tag after `Tag`, to make as many keys as a test needs.
enum Next<Tag> {}

/// `count` distinct keys holding `Stored?`, strongly or weakly: `Slot<Root, Stored>`,
/// `Slot<Next<Root>, Stored>`, and so on. A test that passes a root type of its own (a local
/// `enum`) has keys no other test uses.
func manyKeys<Root, Stored>(
  _ count: Int, of stored: Stored.Type, under root: Root.Type
) -> [any OptionalKey<Stored>.Type] {
  var keys: [any OptionalKey<Stored>.Type] = []
  func collect<Tag>(_ tag: Tag.Type) {
    guard keys.count < count else { return }
    keys.append(Slot<Tag, Stored>.self)
    collect(Next<Tag>.self)
  }
  collect(root)
  return keys
}

/// `count` distinct weak keys holding `Tracked?`, as ``manyKeys(_:of:under:)``.
func manyWeakKeys<Root>(_ count: Int, under root: Root.Type) -> [any OptionalKey<Tracked>.Type] {
  var keys: [any OptionalKey<Tracked>.Type] = []
  func collect<Tag>(_ tag: Tag.Type) {
    guard keys.count < count else { return }
    keys.append(WeakSlot<Tag>.self)
    collect(Next<Tag>.self)
  }
  collect(root)
  return keys
}

/// A key holding an `Int`, which the storage keeps inline, unlike an `Int?` (nine bytes, so
/// boxed). Its default, `Int.min`, stands for "none" (see `nilIfAbsent`), so that a single
/// read tells an absent value from a present one.
protocol IntKey: AssociatedKey, SendableMetatype where Value == Int {}

/// One key of a family of ``IntKey``s, told apart by `Tag`, as ``Slot``.
enum IntSlot<Tag>: IntKey {
  static var defaultValue: Int { .min }
}

/// `count` distinct ``IntKey``s, as ``manyKeys(_:of:under:)``.
func manyIntKeys<Root>(_ count: Int, under root: Root.Type) -> [any IntKey.Type] {
  var keys: [any IntKey.Type] = []
  func collect<Tag>(_ tag: Tag.Type) {
    guard keys.count < count else { return }
    keys.append(IntSlot<Tag>.self)
    collect(Next<Tag>.self)
  }
  collect(root)
  return keys
}

extension Int {
  /// `nil` for `Int.min`, the default of an ``IntKey``: what a read of an absent value gives.
  var nilIfAbsent: Int? { self == .min ? nil : self }
}
