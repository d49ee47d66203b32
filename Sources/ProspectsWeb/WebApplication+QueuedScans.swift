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
    /// The collector stamp the phone held when the scan was made (`CollectorStamp`), naming who scanned it.
    var collector: String?
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
    /// Who the scan was applied as collected by: its stamp's account, else the sender.
    var collectedBy: String?
    /// Why the scan's stamp was not taken (`CollectorStampError.code`), when it held one.
    var collectorRefused: String?
}

/// The answer to `GET /scans/token`: the session's form token, which the phone's queue sends with each batch (a page
/// served from the offline cache may hold an older one), and for a signed-in account a fresh collector stamp, which
/// the phone keeps and stores with each scan it queues.
struct QueueToken: Encodable {
    var csrf: String
    var account: String?
    var collector: String?
}

extension WebApplication {
    /// The most scans one request may carry; the phone sends a longer queue in several.
    static let maximumQueuedScans = 500

    /// `POST /scans/sync`: a phone's queued scans (the form field `scans`, a JSON array of `QueuedScanRequest`),
    /// each applied exactly once by its id (`ProspectsService.applyQueuedScans`), answered per scan in JSON. The
    /// collector is the account of the scan's stamp, signed by this server when the scan was made on the phone, if it
    /// holds and the account still exists; else (no stamp, or a refused one, whose reason the answer names) the
    /// session's, so nothing is lost. Never a name the phone merely says.
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
        var refusals: [String: CollectorStampError] = [:]
        var collectors = CollectorCache(sender: author(context.session))
        for (index, request) in requests.enumerated() {
            let rating = request.rating.map { ProspectRating(rawValue: $0.lowercased()) }
            guard let scannedAt = Timestamp.parse(request.scannedAt), rating != .some(nil) else {
                results[index] = QueuedScanResult(
                    id: request.id, status: "invalid",
                    reason: "scannedAt is no time, or rating is not hot, warm or cold")
                continue
            }
            let (collector, refused) = try collectors.collector(request.collector, app: self)
            scans.append(
                QueuedScan(
                    id: request.id, payload: request.payload, scannedAt: scannedAt, rating: rating ?? nil,
                    tags: request.tags ?? [], note: request.note, event: request.event, collectedBy: collector))
            refusals[request.id] = refused
            places.append(index)
        }
        let time = now()
        let answers = try services.withService { try $0.applyQueuedScans(scans, now: time) }
        for (place, (scan, answer)) in zip(places, zip(scans, answers)) {
            var result = Self.result(scan.id, answer)
            result.collectedBy = scan.collectedBy
            result.collectorRefused = refusals[scan.id]?.code
            switch answer {
            case .stored(let id, let new): result.card = try leadCard(id, new: new)
            case .alreadyStored(let id): result.card = try leadCard(id, new: false)
            case .rejected, .badID: break
            }
            results[place] = result
        }
        try fileFrames(of: scans, answers: answers, form: context.request.form)
        if answers.contains(where: { if case .stored = $0 { true } else { false } }) { changes.noteChange() }
        return .json(["results": results.compactMap { $0 }])
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

    /// `GET /scans/token`: the session's form token and collector stamp in JSON, read by the queue before it sends (same origin only:
    /// no CORS header lets another site read it). Signed out, the sign-in gate answers with its redirect instead.
    func queueToken(_ context: Context) -> HTTPResponse {
        let account = context.session.account
        let stamp = account.flatMap { try? sessions.collectorStamp(for: $0) }
        return .json(QueueToken(csrf: context.session.csrfToken, account: account, collector: stamp))
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
        .json(["error": [QueuedScanResult(id: "", status: "invalid", reason: reason)]], status: status)
    }
}

/// The collectors of one batch's stamps, each stamp checked once (a phone's batch mostly holds one).
private struct CollectorCache {
    let sender: String
    private var checked: [String: (String, CollectorStampError?)] = [:]

    init(sender: String) {
        self.sender = sender
    }

    /// Who a scan holding `stamp` is collected by, and why its stamp was refused (then: the sender).
    mutating func collector(_ stamp: String?, app: WebApplication) throws -> (String, CollectorStampError?) {
        guard let stamp, !stamp.isEmpty else { return (sender, nil) }
        if let known = checked[stamp] { return known }
        let found: (String, CollectorStampError?)
        switch try app.sessions.verifyCollectorStamp(stamp) {
        case .failure(let error): found = (sender, error)
        case .success(let claim):
            let exists = try app.services.withService { try $0.account(named: claim.account) } != nil
            found = exists ? (claim.account, nil) : (sender, .unknownAccount)
        }
        checked[stamp] = found
        return found
    }
}
