import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest
import ProspectsTestSupport
import QRDecoding
import Testing

/// The per-file path on real PNGs, real zbar and a real SQLite file: dedup, the ledger, and what failure leaves behind.
@Suite struct LoaderTests {
    let folder: TemporaryDirectory
    let store: SQLiteStore

    init() throws {
        folder = try TemporaryDirectory()
        store = try SQLiteStore(path: folder.file("prospects.sqlite"))
    }

    func outcome(_ png: [UInt8], _ name: String) -> FileOutcome {
        FileProcessor().process(bytes: png, path: name)
    }

    func load(_ outcomes: [FileOutcome], batchSize: Int = 512) throws -> [FileResult] {
        let loader = Loader(store: store, batchSize: batchSize)
        var results: [FileResult] = []
        for outcome in outcomes { try loader.add(outcome) { results.append($0) } }
        try loader.flush { results.append($0) }
        return results
    }

    @Test func aJPEGLackingItsEndMarkerIsLoadedWithItsWarning() throws {
        let jpeg = try PictureFixtures.convert(
            PNGFixtures.contactCode("Paul Hudson\npaul@hackingwithswift.com"), .jpegBaseline)
        let whole = outcome(jpeg, "whole.jpg")
        #expect(whole.warnings.isEmpty)
        let lacking = outcome(Array(jpeg.dropLast(2)), "lacking.jpg")
        #expect(lacking.fileError == nil)
        #expect(lacking.warnings == [.missingEndMarker(format: "JPEG")])
        #expect(try load([lacking]).map(\.outcome) == [.inserted])
        let cut = outcome(Array(jpeg.dropLast(40)), "cut.jpg")
        #expect(cut.fileError == .truncatedImage(format: "JPEG"))
        #expect(cut.warnings.isEmpty)
    }

    @Test func deduplicatesWithinABatchAndAcrossBatchesOnTheNormalisedAddress() throws {
        let a = outcome(PNGFixtures.contactCode("Paul Hudson\npaul@hackingwithswift.com"), "a.png")
        let b = outcome(PNGFixtures.contactCode("Paul Hudson\nPAUL@HackingWithSwift.com", moduleSize: 5), "b.png")
        let c = outcome(PNGFixtures.contactCode("Zoë Müller\nzoe@example.com"), "c.png")
        let first = try load([a, b])
        #expect(first.map(\.outcome) == [.inserted, .duplicate])
        let second = try load([c, b])
        #expect(second.map(\.outcome) == [.inserted, .duplicate])
        #expect(second[1].alreadyLoaded, "b's exact bytes were committed before: reported, not recorded again")
        #expect(try store.count() == 2)
        let paul = try #require(try store.prospect(.email("paul@hackingwithswift.com")))
        #expect(paul.scanCount == 2)
        #expect(try store.history(of: paul.id).map(\.source) == ["a.png", "b.png"])
    }

    @Test func aFileWithTwoCodesLoadsBothAndEachFileIsOneOutcome() throws {
        let png = PNGFixtures.twoCodes("Ada Lovelace\nada@example.org", "Grace Hopper\ngrace@example.mil")
        let results = try load([outcome(png, "two.png")], batchSize: 1)
        #expect(results.count == 1)
        #expect(results[0].inserted == 2)
        #expect(try store.count() == 2)
    }

    /// Two copies of one card in one photo (a badge and its reflection) are one sighting: the second code is
    /// reported as the same prospect, and neither the scan count nor the history counts it.
    @Test func twoCopiesOfOneCardInOnePhotoAreOneSighting() throws {
        let card = "Ada Lovelace\nada@example.org"
        let png = PNGFixtures.twoCodes(card, card)
        let results = try load([outcome(png, "twice.png")])
        #expect(results[0].file.codes.count == 2, "zbar reads both copies")
        #expect(results[0].inserted == 1 && results[0].duplicates == 1)
        let ada = try #require(try store.prospect(.email("ada@example.org")))
        #expect(ada.scanCount == 1)
        #expect(try store.history(of: ada.id).map(\.source) == ["twice.png"])
        #expect(results[0].codes.map(\.id) == [ada.id, ada.id])
        #expect(try store.ledgerEntry(contentHash: ContentHash.sha256(png))?.prospects == 1)
        // The same bytes again count nothing; another photo of the card is another sighting.
        let again = try load([outcome(png, "twice.png"), outcome(PNGFixtures.contactCode(card), "later.png")])
        #expect(again[0].alreadyLoaded && again[0].codes.map(\.id) == [ada.id, ada.id], "ids looked up for the report")
        #expect(again[1].outcome == .duplicate)
        #expect(try store.prospect(.email("ada@example.org"))?.scanCount == 2)
    }

    /// Two different cards of one person in one picture (the address in another case, one a MECARD with a phone)
    /// are one sighting too, and the phone only one of them carries is kept.
    @Test func twoCardsOfOnePersonInOnePictureAreOneSighting() throws {
        let png = PNGFixtures.twoCodes(
            "Pat Pair\npat@example.com", "MECARD:N:Pair,Pat;TEL:+15551234;EMAIL:PAT@example.com;;")
        let results = try load([outcome(png, "pair.png")])
        #expect(results[0].file.codes.count == 2 && results[0].inserted == 1 && results[0].duplicates == 1)
        let pat = try #require(try store.prospect(.email("pat@example.com")))
        #expect(pat.scanCount == 1 && pat.prospect.phone == "+15551234")
        #expect(try store.history(of: pat.id).map(\.source) == ["pair.png"])
    }

    @Test func rejectedFilesLeaveTheStoreUntouched() throws {
        let bad = [
            outcome([], "empty.png"),
            outcome(Array("not a png".utf8), "text.png"),
            outcome(PNGFixtures.contactCode("Just A Name"), "one-line.png"),
            outcome(PNGFixtures.contactCode("Eve\u{202E}moc\neve@example.com"), "bidi.png"),
        ]
        let results = try load(bad)
        #expect(results.map(\.outcome) == Array(repeating: .rejected, count: 4))
        #expect(
            results.map { $0.file.rejection?.kind } == [
                "unreadableImage", "unreadableImage", "unsupportedPayload", "unsafeCharacters",
            ])
        #expect(try store.count() == 0)
        for result in results {
            let hash = try #require(result.file.contentHash, "a file that was read has a content hash")
            #expect(try store.ledgerEntry(contentHash: hash) == nil)
        }
    }

    @Test func theLedgerHoldsCommittedContentSoARestartDoesNotCountItTwice() throws {
        let png = PNGFixtures.contactCode("Alan Turing\nalan@example.co.uk")
        _ = try load([outcome(png, "inbox/alan.png")])
        // A watcher killed after the commit but before moving the file meets the same bytes again on restart.
        let again = try load([outcome(png, "inbox/alan.png")])
        #expect(again[0].alreadyLoaded && again[0].outcome == .duplicate)
        let alan = try #require(try store.prospect(.email("alan@example.co.uk")))
        #expect(alan.scanCount == 1)
        let entry = try #require(try store.ledgerEntry(contentHash: ContentHash.sha256(png)))
        #expect(entry.prospects == 1 && entry.fileName == "inbox/alan.png")
    }

    @Test func theIngesterProcessesAFolderInOrderOnEveryCore() throws {
        let inbox = folder.url.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        for index in 0..<60 {
            let png = PNGFixtures.contactCode("Person \(index)\nperson\(index % 50)@example.com")
            try Data(png).write(to: inbox.appendingPathComponent(String(format: "%03d.png", index)))
        }
        var seen: [String] = []
        let totals = try Ingester(store: store, workers: 2, batchSize: 7).ingest([inbox.path]) { event in
            if case .file(let result) = event { seen.append(URL(fileURLWithPath: result.file.path).lastPathComponent) }
        }
        #expect(seen == (0..<60).map { String(format: "%03d.png", $0) })
        #expect(totals.files == 60 && totals.inserted == 50 && totals.duplicates == 10 && totals.rejected == 0)
    }
}
