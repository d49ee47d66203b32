import Foundation
import HTTPServer
import ProspectsCore
import ProspectsIngest
import ProspectsService
import QRDecoding

/// The live camera's answer to one frame: `none` (no code), `seen` (a code still in view, not counted again) or
/// `scanned`, with each code's outcome in the words of an upload and the card of each lead it stored.
struct CameraAnswer: Encodable {
    struct Line: Encodable {
        var kind: String
        var text: String
    }

    var status: String
    var lines: [Line] = []
    /// The quick-scan card of each lead the frame's codes stored, in the codes' order.
    var leads: [LeadCard] = []
    /// The text of each code the frame showed, in the codes' order.
    var payloads: [String] = []
}

extension WebApplication {
    /// One frame of the live camera (`POST /scan/frame`, a JPEG in the field `frame`), scanned as an upload is; the
    /// session remembers the codes in view, so a code held in front of the camera counts once.
    func cameraFrame(_ context: Context) throws -> HTTPResponse {
        guard let file = context.request.form.files.first(where: { $0.fieldName == "frame" && $0.size > 0 }) else {
            return json(CameraAnswer(status: "none"))
        }
        let claim = try uploads.admit(file.path, clientName: "camera.jpg")
        let sessionID = context.session.id
        let time = now()
        let frame = try services.withService { service in
            try service.scanFrame(
                claim, uploads: uploads, context: CollectionContext(collectedBy: author(context.session))
            ) { texts in
                var isNew = false
                sessions.update(sessionID) { isNew = !$0.cameraCodes.newCodes(texts, at: time).isEmpty }
                return isNew
            }
        }
        switch frame {
        case .noCode: return json(CameraAnswer(status: "none"))
        case .seen: return json(CameraAnswer(status: "seen"))
        case .scanned(let result, _):
            changes.noteChange()
            let outcome = UploadOutcome(fileName: "camera", result: result)
            var leads: [LeadCard] = []
            for status in result.codes {
                let new = if case .inserted = status { true } else { false }
                if let card = try leadCard(status.id, new: new) { leads.append(card) }
            }
            return json(
                CameraAnswer(
                    status: "scanned", lines: outcome.lines.map { .init(kind: $0.kind.rawValue, text: $0.text) },
                    leads: leads, payloads: result.file.codes.map(\.symbol.text)))
        }
    }

    private func json(_ answer: CameraAnswer) -> HTTPResponse {
        .json(answer, fallback: #"{"status":"none"}"#)
    }
}
