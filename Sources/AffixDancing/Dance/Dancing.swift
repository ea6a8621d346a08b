public import AffixScheduling

/// A class whose instances get a ``Dance`` handle, `dance`, to animate their properties.
///
/// Conform any class and it can dance; nothing else to implement:
///
/// ```swift
/// final class Sprite: Dancing {
///   var position = CGPoint.zero
///   var tint = RGBAColor.white
/// }
///
/// sprite.dance.animate(duration: 2, curve: .easeInOut) {
///   $0.position = CGPoint(x: 100, y: 40)
///   $0.tint = .red
/// }.addCompletion { position in
///   print("ended at the \(position)")
/// }.start(after: 0.5)
/// ```
///
/// A main-actor class (a view) conforms for the main actor alone, with an isolated conformance;
/// its completions and `then` blocks run on the main actor and may touch it:
///
/// ```swift
/// @MainActor final class Badge: @MainActor Dancing {
///   var scale = 1.0
/// }
/// ```
///
/// For an object whose class you cannot conform, ``Dance/of(_:frames:fileID:line:)`` reaches the same
/// handle. Either way a host has exactly one handle, kept in its associated storage.
public protocol Dancing: AnyObject {
  /// The frame source the host's animations run on; `FrameSource.shared` (the main queue at
  /// 60 frames a second) unless the type says otherwise. Read once, when the handle is made.
  var danceFrames: FrameSource { get }
}

extension Dancing {
  /// The shared frame source: animations tick on the main queue.
  public var danceFrames: FrameSource { .shared }

  /// The host's animation handle; every call on it chains.
  public var dance: Dance<Self> { Dance.of(self, frames: danceFrames) }
}
