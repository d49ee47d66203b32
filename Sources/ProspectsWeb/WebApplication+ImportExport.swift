import Foundation
import HTTPServer
import ProspectsCore
import ProspectsExchange
import ProspectsService

/// Import and export of lists (admins only, by the route table).
extension WebApplication {
    /// The list as the list page's query selects it (every page of it), in `format`, as a download. The same
    /// writers as `prospects export` (CSV formula-guarded).
    func export(_ context: Context) throws -> HTTPResponse {
        guard let format = context.request.queryValue("format").flatMap(ExportFormat.init(rawValue:)) else {
            return .text("format must be csv, json or vcard\n", status: 400)
        }
        var profile: CSVProfile?
        if let name = context.request.queryValue("profile"), !name.isEmpty {
            guard format == .csv, let named = CSVProfile(rawValue: name) else {
                return .text("profile must be hubspot, salesforce or google, with format=csv\n", status: 400)
            }
            profile = named
        }
        let query = ListState(query: context.request.query).query(pageSize: nil)
        // Opened here, so that a store that cannot be read is answered 503 rather than with a download cut short.
        try services.withService { service in try service.open() }
        // Streamed from a thread of its own, which holds about 256 KB ahead of the client: the list is never in
        // memory whole, and a client that leaves stops the export. A store failing part-way cuts the download.
        let stream = ResponseStream()
        let services = services
        let chosenProfile = profile
        let thread = Thread {
            do {
                _ = try services.withService { service in
                    try service.export(
                        query, format: format, guardsFormulas: true, profile: chosenProfile,
                        to: .stream { chunk in stream.write(chunk, holdingAtMost: 256 << 10) })
                }
                stream.finish()
            } catch {
                stream.fail()
            }
        }
        thread.name = "prospects-export"
        thread.start()
        var response = HTTPResponse(body: .stream(stream))
        response.headers.set("Content-Type", Self.contentType(format))
        response.headers.set(
            "Content-Disposition",
            "attachment; filename=\"prospects\(profile.map { "-" + $0.rawValue } ?? "").\(format.fileExtension)\"")
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    static func contentType(_ format: ExportFormat) -> String {
        switch format {
        case .csv: "text/csv; charset=utf-8"
        case .json: "application/jsonl; charset=utf-8"
        case .vcard: "text/vcard; charset=utf-8"
        }
    }

    func importPage(_ context: Context) -> HTTPResponse {
        var report: ImportPage.Report?
        sessions.update(context.session.id) { session in
            report = session.importReport
            session.importReport = nil
        }
        return page(ImportPage(report: report, csrfToken: context.session.csrfToken).html)
    }

    /// The list through `ProspectsService.importList`, as `prospects import` does it (exactly once: the same list
    /// again counts nobody twice); its rows record the event given and the signed-in account. 303 to the report.
    func importList(_ context: Context) throws -> HTTPResponse {
        let form = context.request.form
        guard let file = form.files.first(where: { $0.fieldName == "list" && $0.size > 0 }) else {
            return .redirect(to: "/import")
        }
        let name = file.fileName.isEmpty ? "list" : file.fileName
        var report = ImportPage.Report(fileName: name, summary: "", problems: [], failed: false)
        func finish() -> HTTPResponse {
            let done = report
            sessions.update(context.session.id) { $0.importReport = done }
            return .redirect(to: "/import")
        }
        let given = form["format"].flatMap { $0.isEmpty ? nil : ImportFormat(rawValue: $0) }
        guard
            let format = given ?? ProspectsService.importFormat(ofFileAt: file.path)
                ?? ImportFormat(fileName: name)
        else {
            report.summary = "give the format: the file's content and name do not say (CSV, vCard or JSON Lines)"
            report.failed = true
            return finish()
        }
        let event = form["event"].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        var request = ListImport.Request(
            path: file.path, format: format,
            context: CollectionContext(event: event, collectedBy: author(context.session)))
        request.displayName = name
        let outcome = services.withService { service -> Result<ListImport.Summary, ListImport.Failure> in
            Result { () throws(ListImport.Failure) in
                try service.importList(request) { event in
                    switch event {
                    case .waitingForOtherImport: break
                    case .rejected(let rejection): report.problems.append("\(rejection.line): \(rejection.message)")
                    case .ignoredCell(let line, let what):
                        report.problems.append("\(line): \(what); the row was imported without it")
                    }
                }
            }
        }
        switch outcome {
        case .success(let summary):
            report.summary = summary.sentence()
            changes.noteChange()
        case .failure(let failure):
            report.failed = true
            switch failure {
            case .cannotOpen(let error): report.summary = error.message
            case .cannotHash(let error): report.summary = "cannot read the list: \(error)"
            case .storeUnavailable(let error): throw error
            case .cannotReadOn(let error, let progress):
                report.summary =
                    error.message + (progress.committed.rows > 0 ? "; the rows before it were imported" : "")
                changes.noteChange()
            case .storeFailed(let error, _): throw error
            case .interrupted:
                report.summary = "interrupted; import the same file again to finish it (nobody is counted twice)"
            }
        }
        return finish()
    }
}
