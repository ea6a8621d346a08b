extension PlotCommand {
  static func timingCurvePictures() -> [Picture] { [] }
  static func dragPictures() -> [Picture] { [] }
}
