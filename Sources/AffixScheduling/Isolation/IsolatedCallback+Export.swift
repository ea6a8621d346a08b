// `IsolatedCallback` moved to the core, where observation runs observers in their isolation
// too. Re-exported here, with the `Backlog` its `backlog` returns, so that a file that imports
// only AffixScheduling (every mixin did, a third party's too) still finds both: one type each,
// no alias that would make the name ambiguous in files that import both modules.
@_exported public import struct Affix.Backlog
@_exported public import struct Affix.IsolatedCallback
