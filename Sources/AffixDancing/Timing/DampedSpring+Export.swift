// `DampedSpring` lives in AffixScheduling, the spring of every Affix motion. Dancing takes it
// (`.spring(_:)`, `animate(spring:)`), so a file that imports only AffixDancing names it too:
// re-exported alone, the one type, and not the rest of AffixScheduling.
@_exported public import struct AffixScheduling.DampedSpring
