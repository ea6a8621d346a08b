/// An object whose release tests can observe through a weak reference.
final class Payload: Sendable {}
