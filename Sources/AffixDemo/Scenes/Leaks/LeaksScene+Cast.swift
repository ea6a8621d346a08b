import Affix

// The objects the leaks scene creates and drops: plain classes that know nothing of Affix.

/// A host from code we do not own: its values live in the shared table.
final class Sprite: Sendable {
  enum Name: AssociatedKey { typealias Value = String? }
  enum BadgeKey: AssociatedKey { typealias Value = Badge? }
  enum NoteKey: AssociatedKey { typealias Value = Note? }
  enum WeakNoteKey: AssociatedKey { typealias Value = WeakNote? }
}

/// A host that owns its storage, so its values go at its deinit.
final class Card: AssociationOwner {
  enum BadgeKey: AssociatedKey { typealias Value = Badge? }
  let associationStorage = AssociationStorage()
}

/// An attached value with a life of its own to count.
final class Badge: Sendable {
  let number: Int

  init(_ number: Int) {
    self.number = number
  }
}

/// A capability with nothing to stop: what matters is that it dies with its host.
final class Glow: Capability {
  func didEnd(_ ending: CapabilityEnding) {}
}

/// A value that holds its host strongly: the documented way to keep a host alive forever.
final class Note: Sendable {
  let host: any AnyObject & Sendable

  init(about host: any AnyObject & Sendable) {
    self.host = host
  }
}

/// The same note with a weak back-reference, which lets the host go.
final class WeakNote: Sendable {
  let host: WeakReference<any AnyObject & Sendable>

  init(about host: any AnyObject & Sendable) {
    self.host = WeakReference(host)
  }
}

/// Half of a deliberate retain cycle.
final class Document {
  var inspector: Inspector?
  var weakInspector: WeakInspector?
}

/// The other half: a strong reference back to its document.
final class Inspector {
  let document: Document?

  init(document: Document?) {
    self.document = document
  }
}

/// The inspector done right: its document is held weakly.
final class WeakInspector {
  let document: WeakReference<Document>

  init(document: Document) {
    self.document = WeakReference(document)
  }
}
