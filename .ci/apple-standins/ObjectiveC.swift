// Stand-in for Apple's `ObjectiveC` module: exactly the runtime API that the Apple-only
// branches of Sources/ use, each declared as Swift imports it from the SDK, transcribed from
// the header named beside it (objc4, https://github.com/apple-oss-distributions/objc4,
// runtime/objc.h and runtime/runtime.h) or, for the Swift types, from the `ObjectiveC`
// overlay (swift, stdlib/public/Darwin/ObjectiveC/ObjectiveC.swift, as shipped in the SDK).
// The Swift compiler's own tests type-check against a module like this one
// (swift, test/SILGen/Inputs/ObjectiveC.swift).
//
// Every C function is `@discardableResult`, as Swift imports C functions.
// Bodies are never run: this module is compiled to a .swiftmodule, never linked.
//
// What no declaration here stands for, because Sources/ declares it itself:
// `_swift_objcClassUsesNativeSwiftReferenceCounting`, which HostKind.swift binds with
// `@_silgen_name` as the Swift runtime exports it (swift, stdlib/public/runtime/SwiftObject.mm:
// `bool _swift_objcClassUsesNativeSwiftReferenceCounting(const HeapMetadata *theClass)`,
// declared by the stdlib too in Builtin.swift as `(AnyClass) -> Bool`). The check compiles that
// declaration as it is; only Apple hardware links it.

// MARK: objc.h

/// objc.h: `typedef struct objc_selector *SEL;`, imported as the overlay's `Selector`:
/// `public struct Selector: ExpressibleByStringLiteral` around one `OpaquePointer` (the compiler
/// requires that layout for `#selector`).
public struct Selector: ExpressibleByStringLiteral, Hashable {
  var ptr: OpaquePointer

  public init(_ name: String) { fatalError("stand-in") }
  public init(stringLiteral name: String) { fatalError("stand-in") }
}

/// objc.h: `typedef bool BOOL;` (arm64) or `typedef signed char BOOL;` (x86_64), imported in
/// function types as the overlay's `ObjCBool`: `public struct ObjCBool:
/// ExpressibleByBooleanLiteral` with `init(_ value: Bool)` and `var boolValue: Bool`. (A `BOOL`
/// returned by a C function is imported as `Bool`: see `class_respondsToSelector`.)
public struct ObjCBool: ExpressibleByBooleanLiteral, Sendable {
  public init(_ value: Bool) { fatalError("stand-in") }
  public init(booleanLiteral value: Bool) { fatalError("stand-in") }
  public var boolValue: Bool { fatalError("stand-in") }
}

/// objc.h, with `OBJC_OLD_DISPATCH_PROTOTYPES` 0 (the SDK's default for Swift):
/// `typedef void (*IMP)(void /* id, SEL, ... */ );`
public typealias IMP = @convention(c) () -> Void

/// objc.h: `OBJC_EXPORT SEL _Nonnull sel_registerName(const char * _Nonnull str);`
@discardableResult public func sel_registerName(_ str: UnsafePointer<CChar>) -> Selector {
  fatalError("stand-in")
}

// MARK: runtime.h

/// runtime.h: `OBJC_EXPORT Class _Nullable object_getClass(id _Nullable obj);`
@discardableResult public func object_getClass(_ obj: Any?) -> AnyClass? { fatalError("stand-in") }

/// runtime.h: `OBJC_EXPORT BOOL class_respondsToSelector(Class _Nullable cls, SEL _Nonnull sel);`
@discardableResult public func class_respondsToSelector(_ cls: AnyClass?, _ sel: Selector) -> Bool {
  fatalError("stand-in")
}

/// runtime.h: `OBJC_EXPORT IMP _Nullable class_getMethodImplementation(Class _Nullable cls,
/// SEL _Nonnull name);`
@discardableResult public func class_getMethodImplementation(_ cls: AnyClass?, _ name: Selector)
  -> IMP?
{
  fatalError("stand-in")
}

/// runtime.h: `typedef OBJC_ENUM(uintptr_t, objc_AssociationPolicy) { OBJC_ASSOCIATION_ASSIGN
/// = 0, OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1, OBJC_ASSOCIATION_COPY_NONATOMIC = 3,
/// OBJC_ASSOCIATION_RETAIN = 01401, OBJC_ASSOCIATION_COPY = 01403 };`
public enum objc_AssociationPolicy: UInt, Sendable {
  case OBJC_ASSOCIATION_ASSIGN = 0
  case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
  case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
  case OBJC_ASSOCIATION_RETAIN = 0o1401
  case OBJC_ASSOCIATION_COPY = 0o1403
}

/// runtime.h: `OBJC_EXPORT void objc_setAssociatedObject(id _Nonnull object,
/// const void * _Nonnull key, id _Nullable value, objc_AssociationPolicy policy);`
public func objc_setAssociatedObject(
  _ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy
) { fatalError("stand-in") }

// MARK: NSObject.h

/// NSObject.h: `OBJC_ROOT_CLASS OBJC_EXPORT @interface NSObject <NSObject> { Class isa; }` with
/// `- (instancetype)init`: the root class, an Objective-C class (so that a subclass's `@objc`
/// methods and `#selector`s are checked as on Apple platforms). Its `<NSObject>` protocol
/// conformance is left out: no branch uses it on a class of its own.
///
/// This, not the toolchain's Foundation, is the `NSObject` the stand-ins build on: that one is a
/// plain Swift class, so `@objc` on a subclass's methods would be refused. The stand-ins
/// therefore do not re-export the toolchain's Foundation whole (its `NSObject` would make the
/// name ambiguous); each names the few Foundation types its branches use.
@objc open class NSObject {
  public init() {}
}

// The selector Sources/ sends by name, `allowsWeakReference`, is NSObject's (objc4,
// runtime/NSObject.h: `- (BOOL)allowsWeakReference UNAVAILABLE_ATTRIBUTE;`, implemented in
// NSObject.mm as `return ![self _isDeallocating];`): a name, not a declaration the compiler
// can check, so it is cited here and nowhere compiled.
