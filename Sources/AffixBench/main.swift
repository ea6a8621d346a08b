import Foundation

let usage = "usage: affix-bench [core|scheduling|dancing|draggable|all]"
let arguments = CommandLine.arguments.dropFirst()
let selection = arguments.first ?? "all"

switch selection {
case "core": CoreBenchmark.run()
case "core-set-profile": CoreBenchmark.profileSet()
case "core-get-profile": CoreBenchmark.profileGetInt()
case "all":
  CoreBenchmark.run()
case "-h", "--help":
  print(usage)
default:
  print(usage)
  exit(2)
}
