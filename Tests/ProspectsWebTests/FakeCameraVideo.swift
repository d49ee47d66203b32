import Foundation
import QRDecoding

/// A `.y4m` video for Chromium's fake camera (`--use-file-for-fake-video-capture`): `picture` centred, enlarged by
/// a whole factor, on a white 640 × 480 frame, repeated for `frames` frames (Chromium loops the file).
enum FakeCameraVideo {
    static let width = 640
    static let height = 480

    static func write(_ picture: GrayImage, to path: String, frames: Int = 10) throws {
        try write([(picture, frames)], to: path)
    }

    /// Pictures in turn, each for its number of frames at 10 a second (nil: a white frame), on frames of
    /// `width` × `height`.
    static func write(
        _ segments: [(picture: GrayImage?, frames: Int)], to path: String, width: Int = width, height: Int = height
    ) throws {
        var video = Array("YUV4MPEG2 W\(width) H\(height) F10:1 Ip A1:1 C420jpeg\n".utf8)
        // 4:2:0, no colour: both chroma planes at the middle value.
        let chroma = [UInt8](repeating: 128, count: width * height / 2)
        for (picture, frames) in segments {
            let luma =
                picture.map { frame($0, width: width, height: height) }
                ?? [UInt8](repeating: 255, count: width * height)
            for _ in 0..<frames {
                video += Array("FRAME\n".utf8)
                video += luma
                video += chroma
            }
        }
        try Data(video).write(to: URL(fileURLWithPath: path))
    }

    private static func frame(_ picture: GrayImage, width: Int, height: Int) -> [UInt8] {
        let factor = max(1, min((width - 40) / picture.width, (height - 40) / picture.height))
        let left = (width - picture.width * factor) / 2
        let top = (height - picture.height * factor) / 2
        var luma = [UInt8](repeating: 255, count: width * height)
        for y in 0..<(picture.height * factor) {
            for x in 0..<(picture.width * factor) {
                luma[(top + y) * width + left + x] = picture.pixels[(y / factor) * picture.width + x / factor]
            }
        }
        return luma
    }
}
