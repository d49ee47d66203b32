import ProspectsService
import ProspectsWeb

/// `prospects serve`: the lead list in the browser, over the same store as the other commands.
struct ServeCommand: Subcommand {
    static let name = "serve"
    static let abstract =
        "Serve the lead list as web pages: tabs, search, mark, remind, delete, scan by upload, my card."
    static let help = """
        USAGE: prospects serve [--store <location>] [--host <address>] [--port <n>] [--uploads <folder>]
                               [--sign-in] [--trust-proxy] [--rotate-form-key]
                               [--tls-cert <file> --tls-key <file> | --tls-self-signed]

        OPTIONS:
        \(storeOptionHelp)
          --host <address>        the numeric address to listen on (default 127.0.0.1); any other than loopback
                                  (127.0.0.1, ::1) needs sign-in, and so an account: 'prospects user add'
          --port <n>              the port (default 8080; 0 lets the system choose)
          --sign-in               ask for sign-in on loopback too (behind a reverse proxy on the same machine)
          --trust-proxy           behind a reverse proxy: the client's address is the last of X-Forwarded-For
                                  (sign-in delays count by it), X-Forwarded-Proto: https makes cookies Secure
                                  (contrib/prospects-nginx.conf)
          --rotate-form-key       make a new key for the form tokens of visitors not signed in, before serving
                                  (pages opened before keep working until the next rotation)
          --uploads <folder>      where every uploaded picture is kept (default prospects-uploads beside the SQLite
                                  store, or in the working folder): archive/ once its codes are in the list,
                                  rejected/ with NAME.reason.json when refused, as watch files them
          --tls-cert <file>       serve HTTPS with this PEM certificate (chain) ...
          --tls-key <file>        ... and this PEM private key
          --tls-self-signed       serve HTTPS with a certificate made by the openssl command and kept in
                                  prospects-tls beside the store, naming every address served (all of the
                                  machine's for 0.0.0.0); made anew only when an address is missing from it
          -h, --help              show this help

        Prints the address to open (for 0.0.0.0: each address of the machine, and with HTTPS the certificate's
        SHA-256 fingerprint to compare with what a phone shows), then serves until SIGINT or SIGTERM, which end it cleanly (exit 0), letting the
        requests in flight finish. Under systemd (Type=notify) it reports READY and STOPPING on $NOTIFY_SOCKET. One
        line per request on stderr: method, path (without the query), status, duration. The pages
        work without JavaScript; the list reloads by itself when the store changes (another ingest, watch or serve).
        Signed in, staff see, scan, mark, remind, note, rate, tag and edit; admins also delete, export, import
        and manage users. Sessions live in the store, so several serve over one store act as one. Under HTTPS
        cookies are Secure.
        Exit status: 0 after a stop signal, 64 for a bad option, 69 when the store is unavailable, 73 when the
        uploads folder cannot be made, 74 when it cannot listen (address in use, unreadable certificate), 78 when
        sign-in is needed and the store has no account, or HTTPS cannot be set up.
        """
    static let flags: Set<String> = ["--sign-in", "--tls-self-signed", "--trust-proxy", "--rotate-form-key"]
    static let options: Set<String> = ["--store", "--host", "--port", "--uploads", "--tls-cert", "--tls-key"]

    let arguments: CommandLineArguments
    let host: String
    let port: UInt16

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.positionals.isEmpty else { throw UsageError("serve takes no arguments") }
        host = arguments.value("--host") ?? "127.0.0.1"
        port = UInt16(try arguments.integer("--port", in: 0...65_535) ?? 8080)
        let certificate = arguments.value("--tls-cert")
        let key = arguments.value("--tls-key")
        guard (certificate == nil) == (key == nil) else { throw UsageError("--tls-cert and --tls-key go together") }
        if certificate != nil && arguments.has("--tls-self-signed") {
            throw UsageError("--tls-self-signed or --tls-cert and --tls-key, not both")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        var configuration = WebConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.storeOption = arguments.value("--store")
        configuration.uploadDirectory = arguments.value("--uploads")
        configuration.requiresSignIn = arguments.has("--sign-in")
        if let certificate = arguments.value("--tls-cert"), let key = arguments.value("--tls-key") {
            configuration.tls = TLSFiles(certificate: certificate, key: key)
        }
        configuration.tlsSelfSigned = arguments.has("--tls-self-signed")
        configuration.trustProxy = arguments.has("--trust-proxy")
        configuration.environment = context.environment
        // One line per request on stderr (journald under systemd).
        configuration.log = ServiceLifecycle.log
        // Before the server's threads start, so that only `waitForStop` receives a stop signal.
        let lifecycle = ServiceLifecycle(environment: context.environment)
        let server: WebServer
        do {
            server = try WebServer(configuration: configuration)
        } catch let error as WebServerError {
            switch error {
            case .accountsRequired: throw CommandFailure(message: error.message, status: .config)
            case .cannotListen: throw CommandFailure(message: error.message, status: .ioError)
            case .uploadsUnusable: throw CommandFailure(message: error.message, status: .cannotCreate)
            case .tlsUnavailable: throw CommandFailure(message: error.message, status: .config)
            }
        }
        if arguments.has("--rotate-form-key") {
            do {
                try server.rotateFormKey()
            } catch {
                server.stop()
                throw error
            }
            context.console.warn("made a new key for visitors' form tokens")
        }
        context.console.out.line("serving \(server.url)")
        for other in server.urls.dropFirst() { context.console.out.line("also at \(other)") }
        if let fingerprint = server.certificateFingerprint {
            context.console.out.line("certificate SHA-256 \(fingerprint)")
        }
        context.console.out.flush()
        context.console.warn("press Ctrl-C to stop")
        lifecycle.ready(status: "serving \(server.url)")
        lifecycle.waitForStop()
        server.stop()
        context.console.warn("stopped")
        return .success
    }
}
