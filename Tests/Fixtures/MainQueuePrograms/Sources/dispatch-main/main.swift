import Dispatch
import MainQueueCheck

// `dispatchMain()` gives the main queue to Dispatch, which runs it on a thread of its own.
DispatchQueue.main.async {
  replaceAValue { onMainQueue in finish("dispatch-main", onMainQueue: onMainQueue) }
}
DispatchQueue.global().asyncAfter(deadline: .now() + 30) {
  giveUp("dispatch-main: the value was not released within 30 s")
}
dispatchMain()
