import Foundation

/// The leak checks of a package, found in the Swift Testing event stream that
/// `swift test list` writes: every test that is, or is inside a suite that is, tagged
/// `.leakCheck` or marked with the `.checksLeaks` trait.
///
/// The toolchain's `--filter` does not understand tags yet, so the checks are found here and
/// run by their identifiers. The stream lists each test once with the tags written on it;
/// a suite's tags reach its tests only when they run, so ancestors are looked up by identifier.
///
/// The stream carries tags but no other trait, and a trait cannot add a tag to its test, so
/// `.checksLeaks` is found where it is written: in the arguments of the `@Test` or `@Suite`
/// attribute at the source location the stream gives for each test and suite.
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

  /// Reads the JSON lines of an event stream (version 0), and the sources it points to.
  init(eventStream: Data) throws {
    var functions: [(id: String, isCheck: Bool)] = []
    var checkingSuites: [String] = []
    var sources = TraitSources()
    for line in eventStream.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
      guard let record = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
        record["kind"] as? String == "test",
        let payload = record["payload"] as? [String: Any],
        let id = payload["id"] as? String
      else { continue }
      // `_tags` is still marked experimental; `tags` is where it will settle.
      let tags = Set((payload["_tags"] ?? payload["tags"]) as? [String] ?? [])
      let isCheck =
        tags.contains(Self.tag)
        || sources.attributeChecksLeaks(at: payload["sourceLocation"] as? [String: Any])
      switch payload["kind"] as? String {
      case "suite":
        if isCheck { checkingSuites.append(id) }
      case "function":
        functions.append((id, isCheck))
      default:
        continue
      }
    }
    testCount = functions.count
    checks = functions.filter { function in
      function.isCheck || checkingSuites.contains { function.id.hasPrefix($0 + "/") }
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

/// Reads the attribute of a test or a suite at its source location, to find the
/// `.checksLeaks` trait in its arguments.
private struct TraitSources {
  private var files: [String: [Substring]] = [:]

  /// Whether the `@Test` or `@Suite` attribute whose name starts at `location` (as the event
  /// stream gives it: `_filePath`, and a 1-based `line` and `column`) lists `.checksLeaks`.
  mutating func attributeChecksLeaks(at location: [String: Any]?) -> Bool {
    guard let location, let path = location["_filePath"] as? String,
      let line = location["line"] as? Int, let column = location["column"] as? Int
    else { return false }
    if files[path] == nil {
      let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
      files[path] = text.split(separator: "\n", omittingEmptySubsequences: false)
    }
    guard let lines = files[path], line >= 1, line <= lines.count else { return false }
    let rest = lines[(line - 1)...].joined(separator: "\n")
    guard column >= 1, column <= rest.count + 1 else { return false }
    let arguments = Self.arguments(of: rest.dropFirst(column - 1))
    return arguments.contains(".checksLeaks") || arguments.contains("LeakCheckTrait")
  }

  /// The parenthesised arguments right after the attribute's name, string literals left out;
  /// empty when the attribute has none.
  private static func arguments(of attribute: Substring) -> String {
    var text = attribute.drop { $0.isLetter || $0.isNumber || $0 == "_" }
    guard text.first == "(" else { return "" }
    text = text.dropFirst()
    var depth = 1
    var inString = false
    var escaped = false
    var result = ""
    for character in text {
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
        continue
      }
      switch character {
      case "\"": inString = true
      case "(": depth += 1
      case ")": depth -= 1
      default: break
      }
      if depth == 0 { break }
      result.append(character)
    }
    return result
  }
}
