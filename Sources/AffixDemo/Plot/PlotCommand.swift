import AffixBenchTargets
import Foundation

/// A picture that draws itself as an SVG document.
protocol SVGDrawing: Sendable {
  func svg() -> String
}

extension Chart: SVGDrawing {}

/// `affix-demo plot [directory]`: writes the pictures the README and the guides show.
@MainActor enum PlotCommand {
  /// One SVG file to write.
  struct Picture: Sendable {
    var fileName: String
    var caption: String
    var chart: any SVGDrawing
  }

  /// Every picture, in the order they are written; throws when the benchmarks' data file
  /// cannot be read.
  static func pictures() throws -> [Picture] {
    timingCurvePictures() + dragPictures() + (try benchmarkPictures())
      + retargetingPictures() + decayPictures() + independentGroupsPictures()
  }

  /// Where each picture lives in the repository: a guide's pictures in its DocC catalog's
  /// resources, which the copy under Docs/ links to as well, so that none exists twice; the
  /// others in Docs/images.
  static func home(of fileName: String) -> String {
    switch fileName {
    case "timing-curves.svg", "springs.svg", "retargeting.svg", "retargeting-velocity.svg",
      "independent-groups.svg", "decay.svg":
      "Sources/AffixDancing/AffixDancing.docc/Resources"
    case "draggable-trajectory.svg", "draggable-rubber-band.svg":
      "Sources/AffixDraggable/AffixDraggable.docc/Resources"
    default:
      "Docs/images"
    }
  }

  /// Writes every picture into `directory`, or into its home in the repository when
  /// `directory` is nil, creating folders as needed; returns whether all were written.
  static func run(directory: String?, screen: Screen) -> Bool {
    screen.title("plot: pictures of the timing curves and of a drag")
    let pictures: [Picture]
    do {
      pictures = try self.pictures()
    } catch {
      let path = BenchmarkTargets.fileURL.path
      screen.step(screen.paint("could not read \(path): \(error); nothing written", .red))
      return false
    }
    var allWritten = true
    for picture in pictures {
      let folderPath = directory ?? home(of: picture.fileName)
      let folder = URL(fileURLWithPath: folderPath, isDirectory: true)
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      } catch {
        screen.step(screen.paint("could not create \(folderPath): \(error)", .red))
        allWritten = false
        continue
      }
      let file = folder.appendingPathComponent(picture.fileName)
      let path = (folderPath as NSString).appendingPathComponent(picture.fileName)
      do {
        try Data(picture.chart.svg().utf8).write(to: file, options: .atomic)
        screen.step("wrote \(path):")
        screen.detail(picture.caption)
      } catch {
        screen.step(screen.paint("could not write \(path): \(error)", .red))
        allWritten = false
      }
    }
    return allWritten
  }
}
