// Stand-ins for the names that SwiftUI, UIKit, AppKit, Combine and RealityKit declare, so that
// NameClashTests can use them unqualified beside every Affix module on a machine that has none
// of those frameworks. An Affix type of the same name makes that use ambiguous, and the test
// target does not compile. Swift Testing and Foundation are imported for real there.
// swift-format-ignore-file

// SwiftUI
public struct Alignment { public init() {} }
public struct Anchor { public init() {} }
public struct Angle { public init() {} }
public struct Animation { public init() {} }
public struct AnimationContext { public init() {} }
public struct AnimationState { public init() {} }
public struct Binding { public init() {} }
public struct Button { public init() {} }
public struct Capsule { public init() {} }
public struct Circle { public init() {} }
public struct Color { public init() {} }
public struct ContentView { public init() {} }
public protocol CustomAnimation {}
public struct DragGesture { public init() {} }
public struct Edge { public init() {} }
public struct EdgeInsets { public init() {} }
public struct Environment { public init() {} }
public struct Font { public init() {} }
public struct ForEach { public init() {} }
public protocol Gesture {}
public struct GeometryProxy { public init() {} }
public struct Group { public init() {} }
public struct HStack { public init() {} }
public struct Image { public init() {} }
public struct KeyframeAnimator { public init() {} }
public struct KeyframeTrack { public init() {} }
public struct Keyframes { public init() {} }
public struct Label { public init() {} }
public protocol Layout {}
public struct LinearGradient { public init() {} }
public struct Namespace { public init() {} }
public struct Path { public init() {} }
public struct PhaseAnimator { public init() {} }
public struct ProgressView { public init() {} }
public struct Rectangle { public init() {} }
public struct ScrollView { public init() {} }
public protocol Shape {}
public struct Spacer { public init() {} }
public struct Spring { public init() {} }
public struct SpringKeyframe { public init() {} }
public struct State { public init() {} }
public struct Text { public init() {} }
public struct TimelineView { public init() {} }
public struct Toggle { public init() {} }
public struct Transaction { public init() {} }
public protocol Transition {}
public struct UnitCurve { public init() {} }
public struct UnitPoint { public init() {} }
public struct VStack { public init() {} }
public protocol View {}
public struct ZStack { public init() {} }

// UIKit
public struct NSDiffableDataSourceSnapshot { public init() {} }
public struct NSLayoutConstraint { public init() {} }
public struct NSTextStorage { public init() {} }

// AppKit
public struct NSAnimation { public init() {} }
public struct NSColor { public init() {} }
public struct NSView { public init() {} }
public struct NSWindow { public init() {} }

// Combine
public struct AnyCancellable { public init() {} }
public struct AnyPublisher { public init() {} }
public struct CurrentValueSubject { public init() {} }
public struct Future { public init() {} }
public struct Just { public init() {} }
public struct PassthroughSubject { public init() {} }
public struct Published { public init() {} }
public protocol Publisher {}
public protocol Scheduler {}
public protocol Subscriber {}
public protocol Subscription {}

// RealityKit
public struct AnchorEntity { public init() {} }
public struct AnimationResource { public init() {} }
public protocol Component {}
public struct Entity { public init() {} }
public protocol Material {}
public struct MeshResource { public init() {} }
public struct ModelEntity { public init() {} }
public struct PhysicsBodyComponent { public init() {} }
public struct Scene { public init() {} }
public protocol System {}
public struct Transform { public init() {} }
