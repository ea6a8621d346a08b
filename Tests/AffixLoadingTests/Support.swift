import Affix
import AffixLoading
import AffixLoadingTesting
import AffixScheduling
import Synchronization

/// A host that conforms to `Loading` and times its indicator on virtual time.
final class Document: Loading {
  let scheduler: VirtualClock
  let indicator = RecordingIndicator()
  let options: LoadingOptions
  let indicatorsMade = Mutex(0)

  init(scheduler: VirtualClock, options: LoadingOptions = .standard) {
    self.scheduler = scheduler
    self.options = options
  }

  func makeLoadingIndicator() -> any LoadingIndicator {
    indicatorsMade.withLock { $0 += 1 }
    return indicator
  }

  var loadingClock: any SchedulingClock { scheduler }
  var loadingOptions: LoadingOptions { options }
}

/// A host that owns its association storage, so its loading state dies exactly with it.
final class OwningDocument: Loading, AssociationOwner {
  let associationStorage = AssociationStorage()
  let scheduler: VirtualClock
  let indicator: RecordingIndicator

  init(scheduler: VirtualClock, indicator: RecordingIndicator) {
    self.scheduler = scheduler
    self.indicator = indicator
  }

  func makeLoadingIndicator() -> any LoadingIndicator { indicator }
  var loadingClock: any SchedulingClock { scheduler }
}

/// An object that knows nothing about loading.
final class Download {}

extension SchedulingInstant {
  static func ms(_ milliseconds: Int) -> SchedulingInstant {
    .zero + .milliseconds(milliseconds)
  }
}

/// The error of failing work in these tests.
struct DiskFull: Error, Equatable, CustomStringConvertible {
  var description: String { "disk full" }
}
