package ptkg.neo4j;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.BoltConnectorInternalSettings;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Logging;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;
import org.neo4j.logging.log4j.Log4jLogProvider;
import org.neo4j.server.configuration.ConfigurableServerModules;
import org.neo4j.server.configuration.ServerSettings;

/**
 * Neo4j 5.26 Community, embedded, serving Bolt on 127.0.0.1 with authentication on.
 *
 * <pre>
 *   EmbeddedNeo4j serve [--port N] [--http-port N] [--data DIR] [--password PW] [--pagecache SIZE]
 *                       [--pidfile FILE]
 *   EmbeddedNeo4j check [--port N] [--password PW]      exit 0 when Bolt answers RETURN 1 with that password
 * </pre>
 *
 * Options fall back to the environment (NEO4J_PORT, NEO4J_HTTP_PORT, NEO4J_DATA, NEO4J_PASSWORD,
 * NEO4J_PAGECACHE), then to the defaults 7687, 0 (no HTTP), ./target/data, ptkg-test-password, 256m.
 * Prefer NEO4J_PASSWORD over --password: arguments are visible in ps.
 *
 * <p>Hardened for clients that run other people's Cypher (ptkg's read path, an MCP server):
 * {@code LOAD CSV} may not read file URLs ({@code dbms.security.allow_csv_import_from_file_urls
 * =false}) and its import root is the empty folder {@code import/} of the data directory; no
 * procedure is unrestricted ({@code dbms.security.procedures.unrestricted} empty). Remote URLs
 * (http, https, ftp) stay allowed for {@code LOAD CSV} on the server: ptkg's read path refuses
 * {@code LOAD CSV} itself, whatever the URL.
 *
 * <p>With an HTTP port (NEO4J_HTTP_PORT), the HTTP connector listens on 127.0.0.1 with only the
 * Browser module enabled ({@code server.http.enabled_modules=BROWSER}: no HTTP transaction or
 * Query API endpoints; the discovery document at {@code /} is always served): the Neo4j Browser is
 * at {@code http://127.0.0.1:PORT/browser/} and connects to the Bolt port with the password.
 *
 * <p>The password of user {@code neo4j} is applied before Bolt is opened: when the data directory
 * has no marker for the wanted password (first start, or a changed password), the DBMS is started
 * once with Bolt off, {@code ALTER USER neo4j SET PASSWORD ... CHANGE NOT REQUIRED} runs on the
 * system database, and the DBMS is stopped; then it starts for real with Bolt on. So no client can
 * ever see the default neo4j/neo4j credentials or the auth rate limiter.
 *
 * <p>After a successful start it prints a line starting with {@value #READY} once the embedded API
 * and a real Bolt session (Java driver, with the password) both answered {@code RETURN 1}.
 * SIGTERM (or SIGINT) shuts the DBMS down cleanly; after SIGKILL the next start recovers the store
 * from its transaction logs.
 */
public final class EmbeddedNeo4j {
    static final String READY = "PTKG_NEO4J_READY";
    private static final String MARKER = "ptkg-password.sha256";

    private EmbeddedNeo4j() {}

    public static void main(String[] argv) throws Exception {
        String mode = "serve";
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if (a.startsWith("--")) {
                String key = a.substring(2);
                String value;
                int eq = key.indexOf('=');
                if (eq >= 0) {
                    value = key.substring(eq + 1);
                    key = key.substring(0, eq);
                } else if (i + 1 < argv.length) {
                    value = argv[++i];
                } else {
                    throw usage("missing value for " + a);
                }
                opts.put(key, value);
            } else if (i == 0) {
                mode = a;
            } else {
                throw usage("unexpected argument " + a);
            }
        }
        int port = Integer.parseInt(opt(opts, "port", "NEO4J_PORT", "7687"));
        int httpPort = Integer.parseInt(opt(opts, "http-port", "NEO4J_HTTP_PORT", "0"));
        String password = opt(opts, "password", "NEO4J_PASSWORD", "ptkg-test-password");
        switch (mode) {
            case "serve" -> {
                try {
                    serve(
                            Paths.get(opt(opts, "data", "NEO4J_DATA", "target/data")).toAbsolutePath().normalize(),
                            port,
                            httpPort,
                            password,
                            ByteUnit.parse(opt(opts, "pagecache", "NEO4J_PAGECACHE", "256m")),
                            opts.get("pidfile"));
                } catch (Throwable t) {
                    // Neo4j's own threads would keep a half-started JVM alive: exit instead
                    // (the shutdown hook, if installed, still stops the DBMS).
                    log("startup failed: " + t);
                    t.printStackTrace(System.out);
                    System.exit(1);
                }
            }
            case "check" -> System.exit(check(port, password, true) ? 0 : 1);
            default -> throw usage("unknown mode " + mode);
        }
    }

    private static IllegalArgumentException usage(String why) {
        return new IllegalArgumentException(why
                + "; usage: EmbeddedNeo4j serve|check [--port N] [--http-port N] [--data DIR]"
                + " [--password PW] [--pagecache SIZE] [--pidfile FILE]");
    }

    private static String opt(Map<String, String> opts, String key, String env, String dflt) {
        String v = opts.get(key);
        if (v == null || v.isEmpty()) {
            v = System.getenv(env);
        }
        return v == null || v.isEmpty() ? dflt : v;
    }

    private static void log(String msg) {
        System.out.println(OffsetDateTime.now() + " [ptkg-neo4j] " + msg);
        System.out.flush();
    }

    /** The LOAD CSV import root: an empty folder of the data directory (file URLs are off anyway). */
    private static Path importRoot(Path home) throws java.io.IOException {
        Path root = home.resolve("import");
        Files.createDirectories(root);
        try (Stream<Path> entries = Files.list(root)) {
            if (entries.findAny().isPresent()) {
                log("warning: the import folder " + root + " is not empty; LOAD CSV cannot read it"
                        + " (file URLs are disallowed), but keep it empty");
            }
        }
        return root;
    }

    private static DatabaseManagementService start(Path home, int port, int httpPort, long pagecache, boolean bolt)
            throws java.io.IOException {
        SocketAddress address = new SocketAddress("127.0.0.1", port);
        boolean http = bolt && httpPort > 0;
        SocketAddress httpAddress = new SocketAddress("127.0.0.1", http ? httpPort : 7474);
        return new DatabaseManagementServiceBuilder(home)
                .setUserLogProvider(new Log4jLogProvider(System.out))
                .setConfig(GraphDatabaseSettings.auth_enabled, true)
                .setConfig(BoltConnector.enabled, bolt)
                .setConfig(BoltConnector.listen_address, address)
                .setConfig(BoltConnector.advertised_address, address)
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, http)
                .setConfig(HttpConnector.listen_address, httpAddress)
                .setConfig(HttpConnector.advertised_address, httpAddress)
                .setConfig(ServerSettings.http_enabled_modules, Set.of(ConfigurableServerModules.BROWSER))
                // The Browser is asked to send no usage data (the tests block the network anyway).
                .setConfig(ServerSettings.allow_telemetry, false)
                .setConfig(HttpsConnector.enabled, false)
                // Other people's Cypher must not reach the server's files (issue 10): no file URLs
                // for LOAD CSV, an empty import root, no unrestricted procedures.
                .setConfig(GraphDatabaseSettings.allow_file_urls, false)
                .setConfig(GraphDatabaseSettings.load_csv_file_url_root, importRoot(home))
                .setConfig(GraphDatabaseSettings.procedure_unrestricted, List.of())
                // Bolt waits 5 s twice by default while stopping (thread pool, Netty quiet period):
                // the stores are already checkpointed and closed by then, so don't.
                .setConfig(BoltConnectorInternalSettings.thread_pool_shutdown_wait_time, Duration.ofSeconds(1))
                .setConfig(BoltConnectorInternalSettings.connection_shutdown_wait_time, Duration.ofSeconds(1))
                .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
                .setConfig(GraphDatabaseInternalSettings.netty_server_shutdown_timeout, Duration.ofSeconds(2))
                .setConfig(GraphDatabaseSettings.udc_enabled, false)
                .setConfig(GraphDatabaseSettings.pagecache_memory, pagecache)
                // Keep a dev/CI store small on disk: no 256 MiB preallocated transaction log files.
                .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                .setConfig(GraphDatabaseSettings.logical_log_rotation_threshold, ByteUnit.mebiBytes(64))
                .build();
    }

    private static String sha256(String s) throws NoSuchAlgorithmException {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        return HexFormat.of().formatHex(md.digest(("ptkg-neo4j:" + s).getBytes(StandardCharsets.UTF_8)));
    }

    private static void ensurePassword(Path home, long pagecache, int port, String password) throws Exception {
        Path marker = home.resolve(MARKER);
        String want = sha256(password);
        if (Files.exists(marker) && Files.readString(marker).trim().equals(want)) {
            return;
        }
        log("applying the password of user neo4j (DBMS started with Bolt off)");
        DatabaseManagementService dbms = start(home, port, 0, pagecache, false);
        try {
            GraphDatabaseService system = dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
            try {
                system.executeTransactionally(
                        "ALTER USER neo4j SET PASSWORD $pw CHANGE NOT REQUIRED", Map.of("pw", password));
            } catch (RuntimeException e) {
                String m = String.valueOf(e.getMessage());
                if (!m.contains("cannot be the same")) {
                    throw e;
                }
                // Already that password (marker was lost): nothing to change.
            }
        } finally {
            dbms.shutdown();
        }
        Path tmp = home.resolve(MARKER + ".tmp");
        Files.writeString(tmp, want + "\n");
        Files.move(tmp, marker, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        log("password applied");
    }

    private static boolean check(int port, String password, boolean quiet) {
        Config config = Config.builder()
                .withoutEncryption()
                .withLogging(Logging.none())
                .withConnectionTimeout(5, TimeUnit.SECONDS)
                .withMaxConnectionPoolSize(1)
                .build();
        try (Driver driver = GraphDatabase.driver(
                "bolt://127.0.0.1:" + port, AuthTokens.basic("neo4j", password), config)) {
            long x = driver.executableQuery("RETURN 1 AS x").execute().records().get(0).get("x").asLong();
            return x == 1;
        } catch (RuntimeException e) {
            if (!quiet) {
                log("Bolt check failed: " + e);
            } else {
                System.err.println("Bolt check on 127.0.0.1:" + port + " failed: " + e.getMessage());
            }
            return false;
        }
    }

    private static void serve(Path home, int port, int httpPort, String password, long pagecache, String pidfile)
            throws Exception {
        long pid = ProcessHandle.current().pid();
        if (pidfile != null) {
            Files.writeString(Paths.get(pidfile), pid + "\n");
        }
        Files.createDirectories(home);
        log("Neo4j " + org.neo4j.kernel.internal.Version.getNeo4jVersion() + " embedded, pid " + pid
                + ", home " + home + ", bolt 127.0.0.1:" + port
                + (httpPort > 0 ? ", http 127.0.0.1:" + httpPort + " (Neo4j Browser)" : ", http off"));
        long t0 = System.nanoTime();

        ensurePassword(home, pagecache, port, password);

        DatabaseManagementService dbms = start(home, port, httpPort, pagecache, true);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log("signal received: shutting down the DBMS");
            try {
                dbms.shutdown();
                log("DBMS shut down cleanly");
            } catch (Throwable t) {
                log("error during shutdown: " + t);
            } finally {
                stopped.countDown();
            }
        }, "ptkg-neo4j-shutdown"));

        GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        db.executeTransactionally("RETURN 1");
        // End-to-end: a Bolt session with the password, as a client would open it.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!check(port, password, false)) {
            if (System.nanoTime() > deadline) {
                log("Bolt did not answer on 127.0.0.1:" + port + "; giving up");
                System.exit(3);
            }
            Thread.sleep(500);
        }
        log(READY + " bolt://127.0.0.1:" + port + " pid=" + pid
                + (httpPort > 0 ? " browser=http://127.0.0.1:" + httpPort + "/browser/" : "")
                + " startup_ms=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        stopped.await();
    }
}
