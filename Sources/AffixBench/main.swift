switch CommandLine.arguments.dropFirst().first {
case "scheduling": SchedulingBenchmark.run()
default: print("affix-bench")
}
