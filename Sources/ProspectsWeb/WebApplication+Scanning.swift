import Foundation
import HTTPServer
import ProspectsCore
import ProspectsIngest
import ProspectsService

/// Scanning: the upload page, the pictures sent to it, and the receipts a phone asks after.
extension WebApplication {
    func scanPage(_ context: Context) -> HTTPResponse {
        var report: [UploadOutcome]?
        sessions.update(context.session.id) { session in
            report = session.uploadReport
            session.uploadReport = nil
        }
        return page(
            ScanPage(
                report: report, csrfToken: context.session.csrfToken, maximumFiles: configuration.maximumUploadFiles,
                maximumFileSize: configuration.maximumUploadFileSize, receipt: UploadFolder.newReceipt()
            ).html)
    }

    /// The pictures through `ProspectsService.upload` (kept in the uploads folder, each with its outcome), then 303
    /// to the scan page, which shows the outcomes.
    func upload(_ context: Context) throws -> HTTPResponse {
        let files = context.request.form.files.filter { $0.fieldName == "pictures" && $0.size > 0 }
        guard !files.isEmpty else { return .redirect(to: "/scan") }
        let report = try services.withService { service in
            try service.upload(
                files.map { PictureUpload(path: $0.path, clientName: $0.fileName) }, into: uploads,
                context: CollectionContext(collectedBy: author(context.session)))
        }
        changes.noteChange()
        if let id = context.request.queryValue("receipt"), UploadFolder.isReceipt(id) {
            // Best effort: the answer below says it all; the receipt is for a phone that never got it.
            try? services.withService { service in
                try service.saveReceipt(UploadReceipt(id: id, state: .answered, files: report), in: uploads)
            }
        }
        sessions.update(context.session.id) { $0.uploadReport = report }
        return .redirect(to: "/scan")
    }

    /// What the upload given receipt `id` became, for a phone whose answer never came.
    func receiptPage(_ id: String) -> HTTPResponse {
        let receipt = services.withService { service in service.receipt(id, in: uploads) }
        return page(ReceiptPage(id: id, receipt: receipt).html, status: receipt == nil ? 404 : 200)
    }
}
