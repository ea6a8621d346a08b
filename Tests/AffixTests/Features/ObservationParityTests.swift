import Affix
import AffixTestSupport
import Observation
import Testing

/// An observable key is told of a write exactly when a stored property of an `@Observable`
/// class is, on the toolchain that builds the tests. The class is the oracle: each case makes
/// the same write to both, side by side, and compares how many times each tracking was told,
/// never with a number written here.
@Suite struct ObservationParityTests {
  final class Item: Sendable {
    static let first = Item()
  }

  /// Every instance equal to every other: equality, not identity, decides.
  final class Alike: Equatable, Sendable {
    static let first = Alike()
    static func == (lhs: Alike, rhs: Alike) -> Bool { true }
  }

  /// Neither `Equatable` nor a class.
  struct Opaque: Sendable {
    var number = 0
  }

  /// The oracle: one stored property per key below, each starting at the key's default.
  @Observable final class Model {
    var count = 0
    var caption: String? = nil
    var item = Item.first
    var optionalItem: Item? = nil
    var alike = Alike.first
    var opaque = Opaque()
    var optionalOpaque: Opaque? = nil
    var length = 0.0
  }

  enum Count: ObservableKey { static let defaultValue = 0 }
  enum Caption: ObservableKey { typealias Value = String? }
  enum ItemKey: ObservableKey { static var defaultValue: Item { .first } }
  enum OptionalItem: ObservableKey { typealias Value = Item? }
  enum AlikeKey: ObservableKey { static var defaultValue: Alike { .first } }
  enum OpaqueKey: ObservableKey { static var defaultValue: Opaque { Opaque() } }
  enum OptionalOpaque: ObservableKey { typealias Value = Opaque? }
  enum Length: ObservableKey { static let defaultValue = 0.0 }

  /// A write, made the same way to the model's property and to the host's key, after the same
  /// value `before` (if any) is written to both.
  struct Write: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let prepareModel: @Sendable (Model) -> Void
    let prepareHost: @Sendable (Host) -> Void
    let model: @Sendable (Model) -> Void
    let host: @Sendable (Host) -> Void
    let readModel: @Sendable (Model) -> Void
    let readHost: @Sendable (Host) -> Void

    init<Key: ObservableKey & SendableMetatype>(
      _ description: String, _ property: any ReferenceWritableKeyPath<Model, Key.Value> & Sendable,
      _ key: Key.Type, before: Key.Value? = nil, _ value: @escaping @Sendable () -> Key.Value
    ) {
      testDescription = description
      prepareModel = { model in
        if let before { model[keyPath: property] = before }
      }
      prepareHost = { host in
        if let before { Associations(of: host)[key] = before }
      }
      model = { $0[keyPath: property] = value() }
      host = { Associations(of: $0)[key] = value() }
      readModel = { _ = $0[keyPath: property] }
      readHost = { _ = Associations(of: $0)[key] }
    }
  }

  static let writes: [Write] = [
    Write("an equal Equatable value", \.count, Count.self) { 0 },
    Write("a different Equatable value", \.count, Count.self) { 1 },
    Write("nil over nil", \.caption, Caption.self) { nil },
    Write("a string over nil", \.caption, Caption.self) { "Sunset" },
    Write("an equal string", \.caption, Caption.self, before: "Dawn") { "Dawn" },
    Write("the identical object", \.item, ItemKey.self) { .first },
    Write("another object of the same class", \.item, ItemKey.self) { Item() },
    Write("the identical object, optional", \.optionalItem, OptionalItem.self, before: Item.first) {
      .first
    },
    Write("an equal object that is not the same", \.alike, AlikeKey.self) { Alike() },
    Write("a value neither Equatable nor a class", \.opaque, OpaqueKey.self) { Opaque() },
    Write("nil over nil, not Equatable", \.optionalOpaque, OptionalOpaque.self) { nil },
    Write("minus zero over zero", \.length, Length.self) { -0.0 },
  ]

  @Test(arguments: writes)
  func aWriteTellsObservationAsAStoredPropertyDoes(_ write: Write) {
    let model = Model()
    let host = Host()
    write.prepareModel(model)
    write.prepareHost(host)
    let modelChanges = TrackedRead { write.readModel(model) }
    let hostChanges = TrackedRead { write.readHost(host) }
    write.model(model)
    write.host(host)
    #expect(hostChanges.timesTold == modelChanges.timesTold)
  }

  @Test func anEqualWriteStillStoresTheValue() {
    let host = Host()
    let changes = TrackedRead { _ = Associations(of: host)[Length.self] }
    Associations(of: host)[Length.self] = -0.0
    #expect(changes.timesTold == 0)
    #expect(Associations(of: host)[Length.self].sign == .minus)
    #expect(Associations(of: host).hasValue(for: Length.self))
  }

  @Test func anUpdateTellsObservationAsAStoredPropertyDoes() {
    let model = Model()
    let host = Host()
    Associations(of: host)[ItemKey.self] = .first
    let modelChanges = TrackedRead { _ = model.item }
    let hostChanges = TrackedRead { _ = Associations(of: host)[ItemKey.self] }
    // The general update, a class not being Equatable: it stores the same instance.
    Associations(of: host).update(ItemKey.self) { $0 = .first }
    model.item = .first
    #expect(hostChanges.timesTold == modelChanges.timesTold)

    let otherModel = TrackedRead { _ = model.item }
    let otherHost = TrackedRead { _ = Associations(of: host)[ItemKey.self] }
    Associations(of: host).update(ItemKey.self) { $0 = Item() }
    model.item = Item()
    #expect(otherHost.timesTold == otherModel.timesTold)
  }

  @Test func removingAValueEqualToTheDefaultIsAWriteOfTheDefault() {
    let model = Model()
    let host = Host()
    Associations(of: host)[Count.self] = 0
    let modelChanges = TrackedRead { _ = model.count }
    let hostChanges = TrackedRead { _ = Associations(of: host)[Count.self] }
    Associations(of: host).removeValue(for: Count.self)
    model.count = 0
    #expect(hostChanges.timesTold == modelChanges.timesTold)
    #expect(!Associations(of: host).hasValue(for: Count.self))

    Associations(of: host)[Count.self] = 2
    let removal = TrackedRead { _ = Associations(of: host)[Count.self] }
    Associations(of: host).removeValue(for: Count.self)
    #expect(removal.timesTold == 1, "a removal that changes the value is told")
  }
}
