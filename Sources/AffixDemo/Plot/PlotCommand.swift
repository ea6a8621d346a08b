import Foundation

/// A picture that draws itself as an SVG document.
protocol SVGDrawing: Sendable {
  func svg() -> String
}

extension Chart: SVGDrawing {}

/// `affix-demo plot [directory]`: writes the pictures the README and the guides show.
enum PlotCommand {
  /// One SVG file to write.
  struct Picture: Sendable {
    var fileName: String
    var caption: String
    var chart: any SVGDrawing
  }

  /// Every picture, in the order they are written.
  static func pictures() -> [Picture] {
    timingCurvePictures() + dragPictures() + benchmarkPictures()
      + retargetingPictures() + decayPictures() + independentGroupsPictures()
  }

  /// Writes every picture into `directory`, creating it if needed; returns whether all were
  /// written.
  static func run(directory: String, screen: Screen) -> Bool {
    screen.title("plot: pictures of the timing curves and of a drag")
    let folder = URL(fileURLWithPath: directory, isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      screen.step(screen.paint("could not create \(directory): \(error)", .red))
      return false
    }
    var allWritten = true
    for picture in pictures() {
      let file = folder.appendingPathComponent(picture.fileName)
      let path = (directory as NSString).appendingPathComponent(picture.fileName)
      do {
        try Data(picture.chart.svg().utf8).write(to: file, options: .atomic)
        screen.step("wrote \(path): \(picture.caption)")
      } catch {
        screen.step(screen.paint("could not write \(path): \(error)", .red))
        allWritten = false
      }
    }
    return allWritten
  }
}
