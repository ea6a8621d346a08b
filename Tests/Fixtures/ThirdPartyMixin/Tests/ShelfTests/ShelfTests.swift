import Affix
import AffixLayout
import Shelf
import Testing

/// A main-actor item, adopting LayoutNode for the main actor alone.
@MainActor final class Book {
  var frame = LayoutRect.zero
}

extension Book: @MainActor LayoutNode {}

final class Library {}

enum BookWidth: ObservableKey {
  typealias Value = Double
  static var defaultValue: Double { 20 }
}

@MainActor @Suite struct ShelfTests {
  @Test func booksStandInARowAndFollowTheirWidth() {
    let library = Library()
    let shelf = LayoutContainer(frame: LayoutRect(width: 200, height: 20))
    let books = [Book(), Book(), Book()]
    shelf.shelve(books, width: .observed(BookWidth.self, of: library), spacing: 5)
    #expect(books.map(\.frame.x) == [0, 25, 50])
    Associations(of: library)[BookWidth.self] = 30
    #expect(books.map(\.frame.x) == [0, 35, 70])
  }

  @Test func workOfItsOwnRunsAtEveryJoin() {
    let counter = JoinCounter()
    let book = Book()
    counter.count(book)
    let first = LayoutContainer()
    let second = LayoutContainer()
    first.add(book)
    second.add(book)  // leaves the first, joins the second
    #expect(counter.joins == 2)
  }
}
