import Affix

extension LayoutContainer {
  /// One pass: the children in the order of their dependencies on each other, each frame
  /// computed once from its active drafts. A draft that closes a cycle is left out (reported).
  func layOutOnce() {
    let children = self.children
    let bounds = LayoutRect(width: Self.length(frame.width), height: Self.length(frame.height))
    var indices: [ObjectIdentifier: Int] = [:]
    for (index, child) in children.enumerated() { indices[ObjectIdentifier(child.object)] = index }

    func target(of draft: LayoutDraft, in index: Int) -> Int? {
      switch draft.target {
      case .none, .parent:
        return nil
      case .node(let reference):
        guard let object = reference.node.object, let target = indices[ObjectIdentifier(object)]
        else { return nil }
        return target == index ? nil : target
      case .tag(let tag):
        let own = children[index].state
        let found = children.firstIndex { $0.state.tag == tag && $0.state !== own }
        if found != nil { draft.foundItsTag = true }
        return found
      }
    }

    // Depth first: a child comes after the children its drafts read.
    var marks = [UInt8](repeating: 0, count: children.count)  // 0 new, 1 on the path, 2 done
    var order: [Int] = []
    var cut = Set<ObjectIdentifier>()
    func visit(_ index: Int) {
      marks[index] = 1
      for draft in children[index].state.drafts where draft.activationCount > 0 {
        guard let next = target(of: draft, in: index) else { continue }
        if marks[next] == 1 {
          cut.insert(ObjectIdentifier(draft))
          draft.report(
            "it closes a cycle of drafts between nodes, which one pass cannot place; "
              + "the layout leaves it out.")
        } else if marks[next] == 0 {
          visit(next)
        }
      }
      marks[index] = 2
      order.append(index)
    }
    for index in children.indices where marks[index] == 0 { visit(index) }

    var frames = [LayoutRect?](repeating: nil, count: children.count)
    for index in order {
      let state = children[index].state
      guard let current = state.readFrame() else { continue }
      var arithmetic = FrameArithmetic()
      for group in LayoutDraft.Group.allCases {
        for draft in state.drafts where draft.activationCount > 0 && draft.group == group {
          switch draft.target {
          case .none:
            arithmetic.pin(draft.attribute, to: draft.constant)
          case .parent:
            arithmetic.pin(
              draft.attribute, to: bounds.value(of: draft.targetAttribute) + draft.constant)
          case .node, .tag:
            guard !cut.contains(ObjectIdentifier(draft)),
              let other = target(of: draft, in: index),
              let otherFrame = frames[other] ?? children[other].state.readFrame()
            else { continue }
            let value = otherFrame.value(of: draft.targetAttribute) + draft.constant
            guard value.isFinite else { continue }
            arithmetic.pin(draft.attribute, to: value)
          }
        }
      }
      let (frame, clamped) = arithmetic.frame(from: current)
      if clamped, !state.reportedClamp, let draft = state.drafts.first {
        Diagnostics.report(
          subsystem: LayoutDraft.subsystem,
          message: "the drafts of a node give it a negative length (an edge past the one "
            + "opposite it); the layout makes it 0.",
          fileID: draft.fileID, line: draft.line)
      }
      state.reportedClamp = clamped
      frames[index] = frame
      if frame != current { state.writeFrame(frame) }
    }
  }

  /// A length fit for arithmetic: finite and not negative, else 0.
  static func length(_ value: Double) -> Double { value.isFinite && value > 0 ? value : 0 }
}
