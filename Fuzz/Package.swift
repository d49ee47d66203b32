// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for Prospects, kept out of the main package so its build stays free of sanitizer flags.
// Build and run them with `Scripts/fuzz` (or `Scripts/fuzz-smoke` for a short bounded run); by hand:
//   swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
let package = Package(
    name: "ProspectsFuzz",
    dependencies: [
        // A local path: no network needed. `name:` pins the identity whatever the checkout folder is called.
        .package(name: "Prospects", path: "..")
    ],
    targets: [
        // The libFuzzer entry point and the invariants every target checks.
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "ProspectsCore", package: "Prospects"),
                .product(name: "QRDecoding", package: "Prospects"),
            ]
        ),
        .executableTarget(
            name: "FuzzPayloadParser",
            dependencies: ["FuzzSupport", .product(name: "ProspectsCore", package: "Prospects")]
        ),
        .executableTarget(
            name: "FuzzPNGDecoder",
            dependencies: [
                "FuzzSupport", .product(name: "ProspectsCore", package: "Prospects"),
                .product(name: "QRDecoding", package: "Prospects"),
            ]
        ),
        .executableTarget(
            name: "FuzzGeometryPass",
            dependencies: ["FuzzSupport", .product(name: "QRDecoding", package: "Prospects")]
        ),
        .executableTarget(
            name: "FuzzModuleDecoder",
            dependencies: ["FuzzSupport", .product(name: "QRDecoding", package: "Prospects")]
        ),
        .executableTarget(
            name: "FuzzJPEGReader",
            dependencies: [
                "FuzzSupport", .product(name: "ProspectsCore", package: "Prospects"),
                .product(name: "QRDecoding", package: "Prospects"),
            ]
        ),
        .executableTarget(
            name: "FuzzWebPReader",
            dependencies: [
                "FuzzSupport", .product(name: "ProspectsCore", package: "Prospects"),
                .product(name: "QRDecoding", package: "Prospects"),
            ]
        ),
        .executableTarget(
            name: "FuzzHEIFReader",
            dependencies: [
                "FuzzSupport", .product(name: "ProspectsCore", package: "Prospects"),
                .product(name: "QRDecoding", package: "Prospects"),
            ]
        ),
        .executableTarget(
            name: "FuzzImportReaders",
            dependencies: [
                "FuzzSupport", .product(name: "ProspectsCore", package: "Prospects"),
                .product(name: "ProspectsExchange", package: "Prospects"),
            ]
        ),
    ]
)
