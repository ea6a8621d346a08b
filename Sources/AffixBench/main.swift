switch CommandLine.arguments.dropFirst().first {
case "draggable": DraggableBenchmark.run()
default: print("affix-bench")
}
