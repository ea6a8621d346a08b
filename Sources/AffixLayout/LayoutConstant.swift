public import Affix

/// A draft's constant: a number, or the value of an observable key on a model, followed live.
///
/// A literal is a constant; ``observed(_:of:isolation:)`` binds the draft to a key, so that each change
/// of the key's value moves the frame:
///
/// ```swift
/// enum CardWidth: ObservableKey {
///   typealias Value = Double
///   static var defaultValue: Double { 120 }
/// }
///
/// card.pin.width(.observed(CardWidth.self, of: model))
/// Associations(of: model)[CardWidth.self] = 200  // the card is now 200 wide
/// ```
public struct LayoutConstant: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
  /// Subscribes to the key's changes in the isolation the constant was made in; the token ends
  /// the subscription.
  typealias Subscribe = (@escaping (Double) -> Void) -> CancellationToken

  /// The value when the draft is made.
  let value: Double
  /// Where later values come from, for an observed constant.
  let subscribe: Subscribe?

  /// A fixed constant.
  ///
  /// - Parameter value: The constant, finite.
  public init(_ value: Double) {
    self.value = value
    subscribe = nil
  }

  /// A fixed constant, from an integer literal.
  ///
  /// - Parameter value: The constant.
  public init(integerLiteral value: Int) {
    self.init(Double(value))
  }

  /// A fixed constant, from a floating-point literal.
  ///
  /// - Parameter value: The constant.
  public init(floatLiteral value: Double) {
    self.init(value)
  }

  private init(value: Double, subscribe: @escaping Subscribe) {
    self.value = value
    self.subscribe = subscribe
  }

  /// The value of `key` on `host`, read now and followed while the draft lives.
  ///
  /// The draft keeps the subscription's token: the draft's death (or its node's) cancels it.
  /// The host is held weakly; once it dies, the constant keeps its last value. The changes are
  /// delivered in the caller's isolation, where the node lives (see `Associations.observe`).
  ///
  /// - Parameters:
  ///   - key: The key whose value is the constant.
  ///   - host: The object the key's value is stored on.
  ///   - isolation: Where the node lives: the caller's isolation unless given.
  /// - Returns: A constant that follows the key.
  public static func observed<Key: AssociatedKey, Host: AnyObject>(
    _ key: Key.Type, of host: Host, isolation: isolated (any Actor)? = #isolation
  ) -> LayoutConstant where Key.Value == Double {
    let reference = WeakReference(host)
    return LayoutConstant(value: Associations(of: host)[key]) { onChange in
      guard let host = reference.object else { return .cancelled() }
      return Associations(of: host).observe(key, isolation: isolation, onChange)
    }
  }

  /// The same constant with its sign flipped, live values included.
  var negated: LayoutConstant {
    guard let subscribe else { return LayoutConstant(-value) }
    return LayoutConstant(value: -value) { onChange in
      subscribe { onChange(-$0) }
    }
  }
}
