// Stand-in for Apple's `Darwin` module: exactly the C library that the Apple-only branches of
// Sources/ use (the files that `import Darwin` where Linux imports Glibc), each declared as
// Swift imports it from the SDK's headers, transcribed from the header named beside it
// (Apple's Libc, libpthread and xnu headers as the macOS 15 and iOS 18 SDKs ship them; the
// type aliases from <sys/_types.h>, <arm/_types.h> and <i386/_types.h>, identical for arm64
// and x86_64 where used here). Where the Darwin shape differs from Glibc's (a `pthread_t` is a
// pointer, `stderr` is `__stderrp`, `sigaction`'s handler is in a union named
// `__sigaction_u`), the difference is the point of the check.
//
// The C structs live in DarwinTypes.swift, re-exported here (see there why).
// Every C function is `@discardableResult`, as Swift imports C functions.
// Bodies are never run: this module is compiled to a .swiftmodule, never linked.

@_exported import DarwinTypes

// MARK: <sys/_types.h>, <sys/_types/*.h>

/// <sys/_types.h>: `typedef __uint32_t __darwin_useconds_t;`
public typealias __darwin_useconds_t = UInt32
/// <sys/_types/_useconds_t.h>: `typedef __darwin_useconds_t useconds_t;`
public typealias useconds_t = __darwin_useconds_t

// MARK: <sched.h>

/// <sched.h>: `int sched_yield(void);`
@discardableResult public func sched_yield() -> Int32 { fatalError("stand-in") }

// MARK: <unistd.h>

/// <unistd.h>: `int usleep(useconds_t) __DARWIN_ALIAS_C(usleep);`
@discardableResult public func usleep(_: useconds_t) -> Int32 { fatalError("stand-in") }

/// <unistd.h>: `ssize_t write(int __fd, const void * __buf, size_t __nbyte)
/// __DARWIN_ALIAS_C(write);` (no nullability: an implicitly unwrapped pointer)
@discardableResult public func write(_ __fd: Int32, _ __buf: UnsafeRawPointer!, _ __nbyte: Int)
  -> Int
{
  fatalError("stand-in")
}

// MARK: <pthread.h>, <sys/_pthread/_pthread_types.h>

/// <sys/_pthread/_pthread_types.h>: `struct _opaque_pthread_t { long __sig; struct
/// __darwin_pthread_handler_rec *__cleanup_stack; char __opaque[__PTHREAD_SIZE__]; };`
/// (fields left out: no branch reads them)
public struct _opaque_pthread_t {}
/// <sys/_pthread/_pthread_types.h>: `typedef struct _opaque_pthread_t *__darwin_pthread_t;`,
/// and <sys/_pthread/_pthread_t.h>: `typedef __darwin_pthread_t pthread_t;`
public typealias pthread_t = UnsafeMutablePointer<_opaque_pthread_t>

/// <pthread.h>: `__API_AVAILABLE(...) pthread_t pthread_self(void);`, inside the header's
/// `_Nonnull` region (imported non-optional)
@discardableResult public func pthread_self() -> pthread_t { fatalError("stand-in") }

// MARK: <stdlib.h>

/// <stdlib.h>: `char *getenv(const char *);` (no nullability: implicitly unwrapped)
@discardableResult public func getenv(_: UnsafePointer<CChar>!) -> UnsafeMutablePointer<CChar>! {
  fatalError("stand-in")
}

/// <stdlib.h>: `void exit(int) __dead2;`
public func exit(_: Int32) -> Never { fatalError("stand-in") }

// MARK: <unistd.h>, constants

/// <unistd.h>: `#define STDOUT_FILENO 1`
public var STDOUT_FILENO: Int32 { 1 }
/// <unistd.h>: `#define STDERR_FILENO 2`
public var STDERR_FILENO: Int32 { 2 }

/// <unistd.h>: `int isatty(int);`
@discardableResult public func isatty(_: Int32) -> Int32 { fatalError("stand-in") }

// MARK: <sys/ioctl.h>, <sys/ttycom.h>

/// <sys/ttycom.h>: `#define TIOCGWINSZ _IOR('t', 104, struct winsize)`, which Swift imports as
/// an unsigned long: `0x40087468` (IOC_OUT | sizeof(struct winsize) << 16 | 't' << 8 | 104).
public var TIOCGWINSZ: UInt { 0x4008_7468 }

/// <sys/ioctl.h>: `int ioctl(int, unsigned long, ...);` is variadic, which Swift does not
/// import; the SDK's Darwin overlay declares the pointer form instead (swift,
/// stdlib/public/Platform/Platform.swift: `public func ioctl(_ fd: CInt, _ request: UInt,
/// _ ptr: UnsafeMutableRawPointer) -> CInt`, beside `(_:_:_ value: CInt)` and `(_:_:)`).
@discardableResult public func ioctl(_ fd: Int32, _ request: UInt, _ ptr: UnsafeMutableRawPointer)
  -> Int32
{
  fatalError("stand-in")
}
/// The same overlay's integer form.
@discardableResult public func ioctl(_ fd: Int32, _ request: UInt, _ value: Int32) -> Int32 {
  fatalError("stand-in")
}
/// The same overlay's form without an argument.
@discardableResult public func ioctl(_ fd: Int32, _ request: UInt) -> Int32 {
  fatalError("stand-in")
}

// MARK: <signal.h>, <sys/signal.h>

/// <sys/signal.h>: `#define SIGINT 2`
public var SIGINT: Int32 { 2 }
/// <sys/signal.h>: `#define SIGTERM 15`
public var SIGTERM: Int32 { 15 }

/// <sys/signal.h>: `typedef void (*sig_t) (int);`
public typealias sig_t = @convention(c) (Int32) -> Void

/// <sys/signal.h>: `#define SIG_DFL (void (*)(int))0`, a cast Swift does not import; the SDK's
/// overlay declares it (swift, stdlib/public/Platform/Platform.swift:
/// `public var SIG_DFL: sig_t? { return nil }`).
public var SIG_DFL: sig_t? { nil }
/// The same overlay: `public var SIG_IGN: sig_t { return unsafeBitCast(1, to: sig_t.self) }`
public var SIG_IGN: sig_t { fatalError("stand-in") }

/// <sys/signal.h>: `void (*signal(int, void (*)(int)))(int);` (no nullability: implicitly
/// unwrapped handlers)
@discardableResult public func signal(_: Int32, _: (@convention(c) (Int32) -> Void)!) -> (
  @convention(c) (Int32) -> Void
)! { fatalError("stand-in") }

/// <signal.h>: `int raise(int);`
@discardableResult public func raise(_: Int32) -> Int32 { fatalError("stand-in") }

/// <signal.h>: `int sigaction(int, const struct sigaction * __restrict,
/// struct sigaction * __restrict) __DARWIN_ALIAS(sigaction);`
@discardableResult public func sigaction(
  _: Int32, _: UnsafePointer<DarwinTypes.sigaction>!,
  _: UnsafeMutablePointer<DarwinTypes.sigaction>!
) -> Int32 { fatalError("stand-in") }
