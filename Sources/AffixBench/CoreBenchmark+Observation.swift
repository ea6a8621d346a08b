import Affix
import Observation

/// What Swift Observation costs through an ``ObservableKey``, against the baseline its users
/// know, a stored property of an `@Observable` class, measured in the same run: a read
/// outside any tracking, a read inside `withObservationTracking`, and a write once read.
extension CoreBenchmark {
  @Observable final class Model {
    var number = 0
  }

  private enum ObservedNumber: ObservableKey { static let defaultValue = 0 }

  static func observation(quick: Bool, get: Double, set: Double) {
    let passes = quick ? 20 : 500
    let hosts = (0..<1_000).map { _ in Host() }
    let models = (0..<1_000).map { _ in Model() }
    let operations = hosts.count * passes
    for (index, host) in hosts.enumerated() {
      Associations(of: host)[ObservedNumber.self] = index
      models[index].number = index
    }

    let (modelGet, observableGet) = alternating(operations) {
      var sum = 0
      for _ in 0..<passes { for model in models { sum &+= model.number } }
      blackHole(sum)
    } _: {
      var sum = 0
      for _ in 0..<passes {
        for host in hosts { sum &+= Associations(of: host)[ObservedNumber.self] }
      }
      blackHole(sum)
    }

    // One tracking per host, as a view that reads one value: the access is recorded, then the
    // tracking installed and, at the write below, told and cancelled.
    let trackedOperations = hosts.count * max(passes / 50, 1)
    let (modelTracked, observableTracked) = alternating(trackedOperations) {
      for _ in 0..<max(passes / 50, 1) {
        for model in models {
          withObservationTracking {
            blackHole(model.number)
          } onChange: {
          }
        }
      }
    } _: {
      for _ in 0..<max(passes / 50, 1) {
        for host in hosts {
          withObservationTracking {
            blackHole(Associations(of: host)[ObservedNumber.self])
          } onChange: {
          }
        }
      }
    }

    // Writes of values that were read: the registrar is asked each time (and tells the
    // trackings installed above the first time).
    let (modelSet, observableSet) = alternating(operations / 10) {
      for pass in 0..<passes / 10 { for model in models { model.number = pass } }
    } _: {
      for pass in 0..<passes / 10 {
        for host in hosts { Associations(of: host)[ObservedNumber.self] = pass }
      }
    }

    report("core.observable_get", observableGet, "ns/op")
    report("core.observable_model_get", modelGet, "ns/op")
    reportRatio("core.observable_get_vs_model", observableGet / modelGet)
    reportRatio("core.observable_get_vs_get", observableGet / get)
    report("core.observable_tracked_get", observableTracked, "ns/op")
    report("core.observable_model_tracked_get", modelTracked, "ns/op")
    reportRatio("core.observable_tracked_get_vs_model", observableTracked / modelTracked)
    report("core.observable_set", observableSet, "ns/op")
    report("core.observable_model_set", modelSet, "ns/op")
    reportRatio("core.observable_set_vs_model", observableSet / modelSet)
    reportRatio("core.observable_set_vs_set", observableSet / set)
  }
}
