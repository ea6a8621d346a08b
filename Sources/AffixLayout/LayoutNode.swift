import Affix

/// An object with a frame that a ``LayoutContainer`` places: conform a class of yours, then
/// pin it.
///
/// ```swift
/// final class Card: LayoutNode {
///   var frame = LayoutRect.zero
/// }
///
/// let card = Card()
/// card.pin.width(120).height(80).centerInParent()  // recorded, not yet applied
/// stage.add(card)  // applied: the card is centred in the stage
/// ```
///
/// The drafts live on the node (in its `Associations`), and die with it. A main-actor class
/// conforms for the main actor alone: `extension Card: @MainActor LayoutNode {}`; its frame is
/// then written on the main actor, where it is pinned and added.
public protocol LayoutNode: AnyObject {
  /// The node's frame in its container's coordinates; the layout writes it.
  var frame: LayoutRect { get set }
}

extension LayoutNode {
  /// The node's pin: the DSL that records drafts of its frame.
  ///
  /// ```swift
  /// card.pin.width(30).centerInParent()
  /// ```
  public var pin: Pin<Self> { Pin(node: self) }
}
