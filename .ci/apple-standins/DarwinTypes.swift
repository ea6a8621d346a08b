// The C structs of the `Darwin` stand-in (Darwin.swift), which re-exports this module: C has a
// `struct sigaction` and a function `sigaction()`, which the SDK's Darwin module imports side by
// side, and a Swift module cannot declare a type and a function of one name. Each struct is
// declared as Swift imports it, transcribed from the header named beside it (Apple's Libc and
// xnu headers as the macOS 15 and iOS 18 SDKs ship them).
//
// Never run: compiled to a .swiftmodule, never linked.

/// <sys/_types.h>: `typedef __uint32_t __darwin_sigset_t;`, and <sys/_types/_sigset_t.h>:
/// `typedef __darwin_sigset_t sigset_t;` (a 32-bit mask, where Glibc's is a 1024-bit struct)
public typealias sigset_t = UInt32

/// <sys/signal.h>: `union __sigaction_u { void (*__sa_handler)(int); void
/// (*__sa_sigaction)(int, struct __siginfo *, void *); };` (the second member left out: no
/// branch reads it)
public struct __sigaction_u {
  public var __sa_handler: (@convention(c) (Int32) -> Void)!
  public init() { fatalError("stand-in") }
}

/// <sys/signal.h>: `struct sigaction { union __sigaction_u __sigaction_u; sigset_t sa_mask;
/// int sa_flags; };` (Glibc's has `__sigaction_handler` in its place, Musl's `__sa_handler`)
public struct sigaction {
  public var __sigaction_u: __sigaction_u
  public var sa_mask: sigset_t
  public var sa_flags: Int32
  public init() { fatalError("stand-in") }
}

/// <sys/ttycom.h>: `struct winsize { unsigned short ws_row; unsigned short ws_col; unsigned
/// short ws_xpixel; unsigned short ws_ypixel; };`
public struct winsize {
  public var ws_row: UInt16
  public var ws_col: UInt16
  public var ws_xpixel: UInt16
  public var ws_ypixel: UInt16
  public init() { fatalError("stand-in") }
}
