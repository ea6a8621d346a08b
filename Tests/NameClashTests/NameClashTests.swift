import Affix
import AffixDancing
import AffixDraggable
import AffixLayout
import AffixLoading
import AffixMotion
import AffixScheduling
import AffixTesting
import AffixTooltip
import Foundation
import FrameworkStandIns
import Testing

/// Every name an app may import beside Affix, used unqualified: a public Affix type of one of
/// these names makes a use ambiguous ("ambiguous for type lookup"), and this target stops
/// compiling. The names come from SwiftUI, UIKit, AppKit, Combine and RealityKit (stand-ins
/// declared in FrameworkStandIns), and from Swift Testing and Foundation, imported for real.
@Suite struct NameClashTests {
  @Test func frameworkNamesStayUnambiguousBesideEveryAffixModule() {
    // Each name in a type position, where an ambiguous lookup is an error.
    let _: Alignment? = nil
    let _: Anchor? = nil
    let _: Angle? = nil
    let _: Animation? = nil
    let _: AnimationContext? = nil
    let _: AnimationState? = nil
    let _: Binding? = nil
    let _: Button? = nil
    let _: Capsule? = nil
    let _: Circle? = nil
    let _: Color? = nil
    let _: ContentView? = nil
    let _: DragGesture? = nil
    let _: Edge? = nil
    let _: EdgeInsets? = nil
    let _: Environment? = nil
    let _: Font? = nil
    let _: ForEach? = nil
    let _: GeometryProxy? = nil
    let _: Group? = nil
    let _: HStack? = nil
    let _: Image? = nil
    let _: KeyframeAnimator? = nil
    let _: KeyframeTrack? = nil
    let _: Keyframes? = nil
    let _: Label? = nil
    let _: LinearGradient? = nil
    let _: Namespace? = nil
    let _: Path? = nil
    let _: PhaseAnimator? = nil
    let _: ProgressView? = nil
    let _: Rectangle? = nil
    let _: ScrollView? = nil
    let _: Spacer? = nil
    let _: Spring? = nil
    let _: SpringKeyframe? = nil
    let _: State? = nil
    let _: Text? = nil
    let _: TimelineView? = nil
    let _: Toggle? = nil
    let _: Transaction? = nil
    let _: UnitCurve? = nil
    let _: UnitPoint? = nil
    let _: VStack? = nil
    let _: ZStack? = nil
    let _: NSDiffableDataSourceSnapshot? = nil
    let _: NSLayoutConstraint? = nil
    let _: NSTextStorage? = nil
    let _: NSAnimation? = nil
    let _: NSColor? = nil
    let _: NSView? = nil
    let _: NSWindow? = nil
    let _: AnyCancellable? = nil
    let _: AnyPublisher? = nil
    let _: CurrentValueSubject? = nil
    let _: Future? = nil
    let _: Just? = nil
    let _: PassthroughSubject? = nil
    let _: Published? = nil
    let _: AnchorEntity? = nil
    let _: AnimationResource? = nil
    let _: Entity? = nil
    let _: MeshResource? = nil
    let _: ModelEntity? = nil
    let _: PhysicsBodyComponent? = nil
    let _: Scene? = nil
    let _: Transform? = nil
    let _: (any CustomAnimation)? = nil
    let _: (any Gesture)? = nil
    let _: (any Layout)? = nil
    let _: (any Shape)? = nil
    let _: (any Transition)? = nil
    let _: (any View)? = nil
    let _: (any Publisher)? = nil
    let _: (any Scheduler)? = nil
    let _: (any Subscriber)? = nil
    let _: (any Subscription)? = nil
    let _: (any Component)? = nil
    let _: (any Material)? = nil
    let _: (any System)? = nil
    let _: Attachment<String>? = nil
    let _: Tag? = nil
    let _: Issue? = nil
    let _: Comment? = nil
    let _: SourceLocation? = nil
    let _: Bug? = nil
    let _: Confirmation? = nil
    let _: AffineTransform? = nil
    let _: Progress? = nil
    let _: Timer? = nil
    let _: Notification? = nil
    let _: Measurement<UnitLength>? = nil
    let _: Decimal? = nil
    let _: (any Trait)? = nil
    let _: (any Clock<Duration>)? = nil
    // The names above compile only while none is ambiguous; what is left to check at run time
    // is that the stand-ins are the frameworks' own types, not Affix's.
    #expect(String(reflecting: Color.self) == "FrameworkStandIns.Color")
  }

  @Test func affixNamesStillResolveBesideThem() {
    // A few of Affix's own names, used unqualified in the same file.
    let affix: [Any.Type] = [
      Associations<NSObject>.self, DampedSpring.self, Dance<NSObject>.self, DragController.self,
      LoadingController.self, FrameSource.self, VirtualClock.self, LeakTracker.self,
      TooltipController.self, Snap.self, SpringAttachment.self, LayoutContainer.self,
      LayoutDraft.self, LayoutRect.self, Pin<LayoutContainer>.self,
    ]
    #expect(affix.count == 15)
  }
}
