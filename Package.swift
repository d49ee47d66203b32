// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Prospects",
    products: [
        .executable(name: "prospects", targets: ["prospects"]),
        .library(name: "ProspectsCore", targets: ["ProspectsCore"]),
        .library(name: "QRDecoding", targets: ["QRDecoding"]),
        .library(name: "ProspectStore", targets: ["ProspectStore"]),
        .library(name: "ProspectsExchange", targets: ["ProspectsExchange"]),
        .library(name: "ProspectsIngest", targets: ["ProspectsIngest"]),
        .library(name: "SystemCalls", targets: ["SystemCalls"]),
        .library(name: "ProspectsService", targets: ["ProspectsService"]),
        .library(name: "ProspectsWeb", targets: ["ProspectsWeb"]),
    ],
    targets: [
        // C libraries, each wrapped once by the Swift module above it.
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        // Not system libraries: libheif, libpq and libcrypto (and libmicrohttpd below) are loaded on first use, so
        // nothing links them at start-up; each target's C file forwards the calls the Swift code makes. Their headers
        // come with Debian's libheif-dev, libpq-dev and libssl-dev.
        // dlopen on first use, for the four loaders below (include/lazy_library.h).
        .target(name: "CLazyLibrary"),
        .target(name: "CHeif", dependencies: ["CLazyLibrary"]),
        .target(name: "CPostgres", dependencies: ["CLazyLibrary"]),
        .target(name: "CCrypto", dependencies: ["CLazyLibrary"]),
        // Linux calls glibc declares only under _GNU_SOURCE (renameat2), as static inline helpers.
        .systemLibrary(name: "CLinux"),

        // libpng's classic read API for palette and gray PNGs, with every setjmp kept in C (see png_fast.h).
        // libdeflate (libdeflate-dev) inflates a PNG's IDAT data in one call where it fits the memory budget.
        .target(name: "CPNGFast", dependencies: ["CPNG"], linkerSettings: [.linkedLibrary("deflate")]),

        // The one system-call layer: retries on EINTR and turns errno into SystemCallError.
        .target(name: "SystemCalls"),
        // Pure Swift: the prospect model, payload parsing, validation, dedup key. No C, no I/O.
        .target(name: "ProspectsCore"),
        // Picture bytes (PNG, JPEG, HEIF/AVIF, WebP) → gray pixels → QR symbols (libzbar), and a code → PNG for one's
        // own card.
        .target(
            name: "QRDecoding",
            dependencies: ["CPNG", "CPNGFast", "CTurboJPEG", "CWebP", "CHeif", "CZBar", "CQREncode"]),
        // The ProspectStore protocol with its SQLite and PostgreSQL implementations.
        .target(name: "ProspectStore", dependencies: ["ProspectsCore", "CSQLite", "CPostgres"]),
        // Exchange formats for lists: CSV, vCard and JSON Lines writers, streaming CSV / JSON Lines readers.
        .target(
            name: "ProspectsExchange", dependencies: ["ProspectsCore", "ProspectStore", "SystemCalls"]),
        // libcrypto wrapped once: SHA-256 (at once and running), HMAC-SHA-256, PBKDF2; values in, values out.
        .target(name: "Crypto", dependencies: ["CCrypto"]),
        // Files and folders → outcomes: the loader, the per-file pipeline, the watcher, the ledger.
        .target(
            name: "ProspectsIngest",
            dependencies: [
                "ProspectsCore", "QRDecoding", "ProspectStore", "ProspectsExchange", "SystemCalls", "Crypto", "CLinux",
            ]),
        // The application layer every front-end calls: the list, updates, import, export, one's card.
        .target(
            name: "ProspectsService",
            dependencies: [
                "ProspectsCore", "QRDecoding", "ProspectStore", "ProspectsExchange", "ProspectsIngest", "SystemCalls",
                "Crypto",
            ]),
        // `prospects serve`: pages, forms, sessions and static files over the application layer.
        .target(
            name: "ProspectsWeb",
            dependencies: [
                "ProspectsService", "HTTPServer", "SafeHTML", "ProspectsCore", "ProspectsExchange", "ProspectsIngest",
                "QRDecoding", "SystemCalls", "Crypto",
            ]),
        // Argument parsing and printing for the `prospects` command; every behaviour lives below it.
        .target(
            name: "ProspectsCLI",
            dependencies: [
                "ProspectsService", "ProspectsCore", "QRDecoding", "ProspectsExchange", "ProspectsIngest",
                "SystemCalls", "ProspectsWeb",
            ]),
        .executableTarget(name: "prospects", dependencies: ["ProspectsCLI", "CLinux"]),

        // Helpers that tests share: a throwaway PostgreSQL server, temporary folders, PNG fixtures.
        .target(
            name: "ProspectsTestSupport",
            dependencies: ["CLinux", "CPostgres", "QRDecoding", "CQREncode", "SystemCalls"]),

        .testTarget(name: "ProspectsCoreTests", dependencies: ["ProspectsCore"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
        .testTarget(
            name: "QRDecodingTests", dependencies: ["QRDecoding", "ProspectsTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "ProspectStoreTests",
            dependencies: [
                "ProspectStore", "ProspectsCore", "ProspectsTestSupport", "ProspectsService", "ProspectsExchange",
                "ProspectsIngest",
            ]),
        .testTarget(
            name: "ProspectsExchangeTests",
            dependencies: ["ProspectsExchange", "ProspectStore", "ProspectsCore", "ProspectsTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "ProspectsIngestTests",
            dependencies: [
                "ProspectsIngest", "ProspectStore", "ProspectsCore", "ProspectsExchange", "QRDecoding",
                "ProspectsTestSupport", "CSQLite", "SystemCalls",
            ]),
        .testTarget(
            name: "ProspectsServiceTests",
            dependencies: [
                "ProspectsService", "ProspectStore", "ProspectsCore", "ProspectsExchange", "ProspectsIngest",
                "ProspectsTestSupport",
            ]),
        .testTarget(
            name: "ProspectsCLITests",
            dependencies: [
                "ProspectsCLI", "ProspectStore", "ProspectsCore", "ProspectsExchange", "ProspectsTestSupport",
                "QRDecoding",
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["prospects", "ProspectsTestSupport", "QRDecoding"]),

        // The web's foundations, knowing nothing of prospects: libmicrohttpd wrapped once (loaded on first use, its
        // header from libmicrohttpd-dev), HTML escaped by construction, and a raw HTTP client and a WebDriver client
        // (Debian's chromedriver) for tests.
        .target(name: "CMicroHTTPD", dependencies: ["CLazyLibrary"]),
        // libdeflate (libdeflate-dev) gzips responses in one call (`Gzip`).
        .systemLibrary(name: "CDeflate"),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "CDeflate", "SystemCalls"]),
        .target(name: "SafeHTML"),
        .target(name: "WebTestSupport", dependencies: ["CLinux", "SystemCalls"]),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "SafeHTML", "WebTestSupport"]),
        .testTarget(name: "SafeHTMLTests", dependencies: ["SafeHTML"]),
        .testTarget(
            name: "ProspectsWebTests",
            dependencies: [
                "ProspectsWeb", "ProspectsService", "ProspectStore", "ProspectsCore", "ProspectsIngest",
                "ProspectsTestSupport", "HTTPServer",
                "QRDecoding", "WebTestSupport", "SystemCalls", "prospects",
            ]),
    ]
)

// Every Swift target, tests included, is compiled with the same strictness.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]
for target in package.targets where target.type != .system && target.type != .binary {
    target.swiftSettings = (target.swiftSettings ?? []) + strict
}
