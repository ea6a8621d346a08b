/// A binary min-heap: the scheduler's priority list, O(log n) to insert and to pop the first.
struct MinimumHeap<Element: Comparable> {
  private(set) var elements: [Element] = []

  var count: Int { elements.count }
  var first: Element? { elements.first }

  mutating func insert(_ element: Element) {
    elements.append(element)
    var child = elements.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard elements[child] < elements[parent] else { break }
      elements.swapAt(child, parent)
      child = parent
    }
  }

  mutating func popFirst() -> Element? {
    guard !elements.isEmpty else { return nil }
    elements.swapAt(0, elements.count - 1)
    let first = elements.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < elements.count, elements[left] < elements[smallest] { smallest = left }
      if right < elements.count, elements[right] < elements[smallest] { smallest = right }
      guard smallest != parent else { break }
      elements.swapAt(parent, smallest)
      parent = smallest
    }
    return first
  }

  /// Keeps only the elements that satisfy `isIncluded`, in O(n).
  mutating func filter(_ isIncluded: (Element) -> Bool) {
    let kept = elements.filter(isIncluded)
    elements = []
    elements.reserveCapacity(kept.count)
    for element in kept { insert(element) }
  }
}
