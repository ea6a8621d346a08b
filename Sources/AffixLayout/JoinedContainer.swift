public import Affix

/// The moment a node joins a ``LayoutContainer``.
///
/// It is reached by the container's `add(_:isolation:fileID:line:)`, and left by its
/// `remove(_:isolation:fileID:line:)`.
///
/// A node's drafts are activated by work it records for this moment, so that drafts declared
/// before the node has a container wait for it, and drafts made while it is in one apply at
/// once. Work of your own may wait for it too:
///
/// ```swift
/// Associations(of: card).whenReached(JoinedContainer.self) {
///   print("the card is on the stage")
/// }
/// ```
public enum JoinedContainer: HostMoment {}
