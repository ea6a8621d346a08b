import Foundation

/// The leak checks of a package, found in the Swift Testing event stream that
/// `swift test list` writes: every test whose tags, or whose enclosing suites' tags, include
/// `.leakCheck`.
///
/// The toolchain's `--filter` does not understand tags yet, so the checks are found here and
/// run by their identifiers. The stream lists each test once with the tags written on it;
/// a suite's tags reach its tests only when they run, so ancestors are looked up by identifier.
struct LeakCheckDiscovery {
  /// The tag as the event stream writes it: a tag declared as a static member of `Tag`.
  static let tag = ".leakCheck"

  /// One test function the stream listed.
  struct Check: Hashable {
    /// Its identifier, `Module.Suite/name()/File.swift:line:column`.
    let id: String
    /// The module (the test target's module name) that holds it.
    var module: String { String(id.prefix { $0 != "." }) }
  }

  /// The leak checks, in the order the stream listed them.
  private(set) var checks: [Check] = []
  /// How many test functions the stream listed, leak checks or not.
  private(set) var testCount = 0

  /// Reads the JSON lines of an event stream (version 0).
  init(eventStream: Data) throws {
    var functions: [(id: String, tags: Set<String>)] = []
    var taggedSuites: [String] = []
    for line in eventStream.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
      guard let record = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
        record["kind"] as? String == "test",
        let payload = record["payload"] as? [String: Any],
        let id = payload["id"] as? String
      else { continue }
      // `_tags` is still marked experimental; `tags` is where it will settle.
      let tags = Set((payload["_tags"] ?? payload["tags"]) as? [String] ?? [])
      switch payload["kind"] as? String {
      case "suite":
        if tags.contains(Self.tag) { taggedSuites.append(id) }
      case "function":
        functions.append((id, tags))
      default:
        continue
      }
    }
    testCount = functions.count
    checks = functions.filter { function in
      function.tags.contains(Self.tag)
        || taggedSuites.contains { function.id.hasPrefix($0 + "/") }
    }.map { Check(id: $0.id) }
  }

  /// Keeps the checks in the given modules (all if empty) whose identifier matches `pattern`.
  mutating func narrow(toModules modules: Set<String>, matching pattern: String?) throws {
    if !modules.isEmpty {
      checks.removeAll { !modules.contains($0.module) }
    }
    if let pattern {
      let expression: NSRegularExpression
      do {
        expression = try NSRegularExpression(pattern: pattern)
      } catch {
        throw LeakCheckFailure(
          message: "leak-check: --filter '\(pattern)' is not a regular expression")
      }
      checks.removeAll { check in
        expression.firstMatch(in: check.id, range: NSRange(check.id.startIndex..., in: check.id))
          == nil
      }
    }
  }

  /// The modules that hold leak checks, with how many each holds, sorted by name.
  var modules: [(name: String, count: Int)] {
    Dictionary(grouping: checks, by: \.module).map { ($0.key, $0.value.count) }
      .sorted { $0.name < $1.name }
  }

  /// The `swift test` options that run exactly these checks: one anchored `--filter` each
  /// (several select their union).
  var filterArguments: [String] {
    checks.flatMap { ["--filter", "^" + Self.escaped($0.id) + "$"] }
  }

  private static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      if "\\^$.|?*+()[]{}".contains(character) { result.append("\\") }
      result.append(character)
    }
    return result
  }
}
