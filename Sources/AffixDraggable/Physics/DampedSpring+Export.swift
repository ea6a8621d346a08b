// `DampedSpring` lives in AffixScheduling, the spring of every Affix motion. A snap and an
// attachment take it (`makeDraggable(snap:attachment:)`), so a file that imports only
// AffixDraggable names it too: re-exported alone, the one type, and not the rest of
// AffixScheduling.
@_exported public import struct AffixScheduling.DampedSpring
