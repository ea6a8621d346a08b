import Affix

/// Reports bad input or a call in the wrong state under the "drag" subsystem.
func diagnose(_ message: String) {
  Diagnostics.report(subsystem: DragController.subsystem, message: message)
}
