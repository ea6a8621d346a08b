import Affix
public import AffixLayout

/// A third party's layout on AffixLayout's public API: items in a row on a shelf, each after
/// the one before, pinned before the shelf has them.
extension LayoutContainer {
  /// Pins `items` in a row, `spacing` apart, and adds them: each one's drafts wait for its join.
  public func shelve<Item: LayoutNode>(
    _ items: [Item], width: LayoutConstant, spacing: Double,
    isolation: isolated (any Actor)? = #isolation
  ) {
    var previous: Item?
    for item in items {
      item.pin.width(width, isolation: isolation).height(10, isolation: isolation)
        .top(isolation: isolation)
      if let previous {
        item.pin.leading(to: previous, offset: LayoutConstant(spacing), isolation: isolation)
      } else {
        item.pin.leading(isolation: isolation)
      }
      previous = item
    }
    for item in items { add(item, isolation: isolation) }
  }
}

/// Counts the joins of an item, with work of its own for the moment it joins a container.
public final class JoinCounter {
  /// How many times the items counted joined a container.
  public private(set) var joins = 0

  /// A counter at zero.
  public init() {}

  /// Counts every join of `item` from now on.
  public func count(
    _ item: some LayoutNode, isolation: isolated (any Actor)? = #isolation
  ) {
    Associations(of: item).whenReached(
      JoinedContainer.self, repeats: .everyTime, isolation: isolation
    ) { [weak self] in
      self?.joins += 1
    }
  }
}
