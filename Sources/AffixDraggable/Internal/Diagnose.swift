import Foundation

/// Reports bad input or a call in the wrong state under the "drag" subsystem.
func diagnose(_ message: String) {
  FileHandle.standardError.write(Data("affix[drag]: \(message)\n".utf8))
}
