// Declarations live in include/AffixRuntimeShims.h.
