extension LeaksScene {
  static let capabilityKinds = ["DragController"]

  static func attachMore(to widget: Widget, on stage: Stage, census: Census) {}
}
