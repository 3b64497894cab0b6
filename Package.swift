// swift-tools-version:6.1
import PackageDescription

// Dependencies point down only: permitready → TutorBot → {TelegramAPI, TutorStore} → TutorCore.
// TutorCore is pure (Foundation only: no networking, no SQLite); `make boundaries` checks it.
// The benchmarks, the fake Bot API and the simulated learners live in permitready-bench: the
// binary that ships carries none of them.
let package = Package(
    name: "PermitReady",
    // Linux only: the transport's C shim waits on epoll, and the bot runs under systemd.
    products: [
        .executable(name: "permitready", targets: ["permitready"]),
        .executable(name: "permitready-bench", targets: ["permitready-bench"]),
    ],
    // Every direct dependency pinned exactly: Package.resolved stays out of git (the local package
    // mirror's commit ids are not upstream's), so two builds must not resolve different versions.
    // swift-atomics 1.3.0 comes with swift-prometheus (README "Dependencies").
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // swift-mustache 2.1.1 (hummingbird-project), vendored with a small patch: strings, flags and
        // dictionaries are looked up without protocol casts, which were most of a render and
        // contended between the two rendering threads (Vendor/README.md).
        .package(path: "Vendor/swift-mustache"),
        // Operator metrics: the ecosystem's API and its Prometheus backend (text written to a file).
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // The sender's waiting chats (Heap) and the tap answers' queue (Deque): kept data structures
        // in place of hand-written ones.
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
        // Start and graceful stop on SIGTERM / SIGINT (ServiceGroup), in place of hand-made signal sources.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        // JSON read and written by hand for speed (bank files, sessions, request bodies): Foundation only.
        .target(name: "JSONCoding"),
        .target(name: "TutorCore", dependencies: ["JSONCoding"]),
        .target(
            name: "TutorStore",
            dependencies: ["TutorCore", "JSONCoding", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "TelegramAPI",
            dependencies: ["CCurl", "JSONCoding", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "TutorBot",
            dependencies: [
                "TutorCore", "TutorStore", "TelegramAPI", "CCairo", "JSONCoding",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The fake Bot API server: end-to-end tests drive the bot against it, and
        // `permitready-bench` measures the loopback path with it.
        .target(name: "FakeBotAPI"),
        // Simulated learners with hidden knowledge, for the readiness calibration (bench and tests).
        .target(name: "LearnerSimulation", dependencies: ["TutorCore"]),
        // Synthetic learners for drills, benchmarks and tests (`DrillData`): not in the shipped binary.
        .target(name: "Drills", dependencies: ["TutorCore", "TutorStore"]),
        .executableTarget(
            name: "permitready",
            dependencies: [
                "TutorBot", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "permitready-bench",
            dependencies: [
                "TutorBot", "FakeBotAPI", "LearnerSimulation", "Drills",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "TutorCoreTests", dependencies: ["TutorCore", "JSONCoding", "LearnerSimulation"], resources: [.copy("Fixtures")]),
        .testTarget(name: "TutorStoreTests", dependencies: ["TutorStore", "TutorCore"]),
        .testTarget(
            name: "TutorBotTests",
            dependencies: ["TutorBot", "TutorCore", "TutorStore", "TelegramAPI", "FakeBotAPI", "JSONCoding", "Drills"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
