// `IsolatedCallback` moved to the core, where observation runs observers in their isolation
// too. Re-exported here, alone, so that a file that imports only AffixScheduling (every mixin
// did, a third party's too) still finds it: one type, no alias that would make the name
// ambiguous in files that import both modules.
@_exported public import struct Affix.IsolatedCallback
