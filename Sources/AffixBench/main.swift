import Foundation

let usage = """
  usage: affix-bench [core|scheduling|loading|dancing|draggable|all] [--quick]

  Prints one figure per line as `<group>.<metric>: <value> <unit>`, ratios against baselines
  measured in the same run as `<number>x`. --quick runs smaller workloads (for CI smoke runs).
  """

let arguments = Array(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
let groups = arguments.filter { !$0.hasPrefix("-") }
let selection = groups.first ?? "all"

if arguments.contains("-h") || arguments.contains("--help") {
  print(usage)
  exit(0)
}

switch selection {
case "core": CoreBenchmark.run(quick: quick)
case "scheduling": SchedulingBenchmark.run(quick: quick)
case "loading": LoadingBenchmark.run()
case "dancing": DancingBenchmark.run()
case "draggable": DraggableBenchmark.run()
case "all":
  CoreBenchmark.run(quick: quick)
  SchedulingBenchmark.run(quick: quick)
  LoadingBenchmark.run()
  DancingBenchmark.run()
  DraggableBenchmark.run()
default:
  print(usage)
  exit(2)
}
Verdicts.print()
