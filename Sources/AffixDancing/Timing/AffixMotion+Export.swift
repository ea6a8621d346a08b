// AffixMotion is the vocabulary of every Affix motion: Dancing's springs (`.spring(_:)`,
// `animate(spring:)`), its decay rates and the reduced-motion switch it obeys. Re-exported, so
// that a file that imports only AffixDancing names them too, as it did when they lived in
// AffixScheduling.
@_exported public import AffixMotion
