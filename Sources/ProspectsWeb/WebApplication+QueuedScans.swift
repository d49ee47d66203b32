import Foundation
import HTTPServer
import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import ProspectsService

/// One scan of a phone's offline queue as the page sends it, in the JSON array of the form field `scans`.
struct QueuedScanRequest: Decodable {
    var id: String
    var payload: String
    /// ISO 8601 with the zone, as `Date.prototype.toISOString` writes it.
    var scannedAt: String
    var rating: String?
    var tags: [String]?
    var note: String?
    var event: String?
}

/// The answer to one queued scan, in the order sent: `stored` (with `lead` and `new`), `alreadyStored` (sent
/// before; nothing changed), `rejected` (with the parser's `reason`), or `invalid` (the scan itself is malformed).
struct QueuedScanResult: Encodable {
    var id: String
    var status: String
    var lead: Int64?
    var new: Bool?
    var reason: String?
    /// The stored lead's quick-scan card (name, organisation, scans), for the page that queued the scan.
    var card: LeadCard?
}

/// The answer to `GET /scans/token`: the session's form token, which the phone's queue sends with each batch (a page
/// served from the offline cache may hold an older one).
struct QueueToken: Encodable {
    var csrf: String
    var account: String?
}

extension WebApplication {
    /// The most scans one request may carry; the phone sends a longer queue in several.
    static let maximumQueuedScans = 500

    /// `POST /scans/sync`: a phone's queued scans (the form field `scans`, a JSON array of `QueuedScanRequest`),
    /// each applied exactly once by its id (`ProspectsService.applyQueuedScans`), answered per scan in JSON. The
    /// collector is who the session is, never what the phone says.
    func syncQueuedScans(_ context: Context) throws -> HTTPResponse {
        guard let text = context.request.form["scans"],
            let requests = try? JSONDecoder().decode([QueuedScanRequest].self, from: Data(text.utf8))
        else {
            return syncRefusal("the field scans is no JSON array of scans (id, payload, scannedAt)", status: 400)
        }
        guard requests.count <= Self.maximumQueuedScans else {
            return syncRefusal("at most \(Self.maximumQueuedScans) scans at once; send the rest after", status: 413)
        }
        var results = [QueuedScanResult?](repeating: nil, count: requests.count)
        var scans: [QueuedScan] = []
        var places: [Int] = []
        let collector = author(context.session)
        for (index, request) in requests.enumerated() {
            let rating = request.rating.map { ProspectRating(rawValue: $0.lowercased()) }
            guard let scannedAt = Timestamp.parse(request.scannedAt), rating != .some(nil) else {
                results[index] = QueuedScanResult(
                    id: request.id, status: "invalid",
                    reason: "scannedAt is no time, or rating is not hot, warm or cold")
                continue
            }
            scans.append(
                QueuedScan(
                    id: request.id, payload: request.payload, scannedAt: scannedAt, rating: rating ?? nil,
                    tags: request.tags ?? [], note: request.note, event: request.event, collectedBy: collector))
            places.append(index)
        }
        let time = now()
        let answers = try services.withService { try $0.applyQueuedScans(scans, now: time) }
        for (place, (scan, answer)) in zip(places, zip(scans, answers)) {
            var result = Self.result(scan.id, answer)
            switch answer {
            case .stored(let id, let new): result.card = try leadCard(id, new: new)
            case .alreadyStored(let id): result.card = try leadCard(id, new: false)
            case .rejected, .badID: break
            }
            results[place] = result
        }
        try fileFrames(of: scans, answers: answers, form: context.request.form)
        if answers.contains(where: { if case .stored = $0 { true } else { false } }) { changes.noteChange() }
        return syncJSON(["results": results.compactMap { $0 }], status: 200)
    }

    /// Files each scan's frame (the file field `frame-<id>`, a JPEG the page made of what the phone read) by its
    /// answer, after the scans are applied: a crash in between loses a frame, never counts a scan twice.
    private func fileFrames(of scans: [QueuedScan], answers: [QueuedScan.Answer], form: HTTPForm) throws {
        for (scan, answer) in zip(scans, answers) {
            guard let file = form.files.first(where: { $0.fieldName == "frame-" + scan.id && $0.size > 0 }) else {
                continue
            }
            let claim = try uploads.admit(file.path, clientName: "phone-scan.jpg")
            _ = services.withService { $0.fileQueuedFrame(claim, of: scan, answer: answer, uploads: uploads) }
        }
    }

    /// `GET /scans/token`: the session's form token in JSON, read by the queue before it sends (same origin only:
    /// no CORS header lets another site read it). Signed out, the sign-in gate answers with its redirect instead.
    func queueToken(_ context: Context) -> HTTPResponse {
        let token = QueueToken(csrf: context.session.csrfToken, account: context.session.account)
        let bytes = (try? JSONEncoder().encode(token)).map(Array.init) ?? Array("{}".utf8)
        return HTTPResponse(headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(bytes))
    }

    private static func result(_ id: String, _ answer: QueuedScan.Answer) -> QueuedScanResult {
        switch answer {
        case .stored(let lead, let new): QueuedScanResult(id: id, status: "stored", lead: lead, new: new)
        case .alreadyStored(let lead): QueuedScanResult(id: id, status: "alreadyStored", lead: lead)
        case .rejected(let error): QueuedScanResult(id: id, status: "rejected", reason: error.message)
        case .badID: QueuedScanResult(id: id, status: "invalid", reason: "the scan's id is no UUID")
        }
    }

    private func syncRefusal(_ reason: String, status: Int) -> HTTPResponse {
        syncJSON(["error": [QueuedScanResult(id: "", status: "invalid", reason: reason)]], status: status)
    }

    private func syncJSON(_ body: [String: [QueuedScanResult]], status: Int) -> HTTPResponse {
        let bytes = (try? JSONEncoder().encode(body)).map(Array.init) ?? Array("{}".utf8)
        return HTTPResponse(
            status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(bytes))
    }
}
