import ProspectsIngest

/// What one live-camera frame did. Only a frame that shows a new code is kept (archived, or quarantined with its
/// reason) as the evidence of its scan; the others are removed at once, so a camera left running fills nothing.
public enum CameraFrame: Sendable {
    /// No code in the frame (or the picture could not be read): removed.
    case noCode
    /// Only codes still in view since an earlier frame (`CodeRepeatFilter`): removed, nothing counted.
    case seen
    /// A new code: loaded as an uploaded picture is, and filed at `filedAt` (nil when it could not be moved and
    /// stays in the uploads' `.incoming/` folder until the next start).
    case scanned(FileResult, filedAt: String?)
}
