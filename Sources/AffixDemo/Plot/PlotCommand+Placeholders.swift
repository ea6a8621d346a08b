extension PlotCommand {
  static func timingCurvePictures() -> [Picture] { [] }
}
