// AffixMotion is the vocabulary of every Affix motion: a snap's and an attachment's spring
// (`makeDraggable(snap:attachment:)`), a fling's deceleration rate and the reduced-motion
// switch. Re-exported, so that a file that imports only AffixDraggable names them too, as it
// did when they lived in AffixScheduling.
@_exported public import AffixMotion
