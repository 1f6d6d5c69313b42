#!/usr/bin/env bash
# Start a real Neo4j 5.26 LTS Community server (embedded in a small JVM program, no Docker needed),
# Bolt on 127.0.0.1, auth on. Builds docker/neo4j-embedded/ with Maven first if needed (Maven
# Central only, at build time; nothing is downloaded at run time).
#
# Waits until the server answers `RETURN 1` over Bolt with the password, then exits 0 and leaves the
# server running in the background. Idempotent: exits 0 at once if it is already running and
# answering. Stop it with docker/neo4j-stop.sh (--kill for SIGKILL); a start after a SIGKILL on the
# same data directory recovers the store.
#
# The server is configured for clients that run other people's Cypher: LOAD CSV may not read file
# URLs and its import root is an empty folder, no procedure is unrestricted; HTTP, when on, serves
# only the Browser (no HTTP transaction or Query API endpoints). See docker/README.md.
#
# Environment (all optional):
#   NEO4J_PORT            Bolt port on 127.0.0.1                      (default 7687)
#   NEO4J_HTTP_PORT       HTTP port on 127.0.0.1 serving the Neo4j Browser at /browser/, or 0
#                         for no HTTP connector                      (default 0: off)
#   NEO4J_PASSWORD        password of user neo4j, >= 8 characters     (default ptkg-test-password)
#   NEO4J_DATA            Neo4j home: data/, logs/ (debug.log) inside (default docker/neo4j-embedded/target/data)
#   NEO4J_RUN_DIR         where neo4j.pid and neo4j.log go            (default docker/neo4j-embedded/target)
#   NEO4J_START_TIMEOUT   seconds to wait for readiness               (default 120)
#   NEO4J_HEAP            JVM -Xmx                                    (default 1g)
#   NEO4J_PAGECACHE       Neo4j page cache size                       (default 256m)
#   NEO4J_JAVA_OPTS       extra JVM options, appended
#   PYTHON                if set, also check with that Python's neo4j driver before declaring ready
#   JAVA / MVN            the java and mvn commands                    (default: java, mvn on PATH)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PROJ="$HERE/neo4j-embedded"
PORT="${NEO4J_PORT:-7687}"
HTTP_PORT="${NEO4J_HTTP_PORT:-0}"
PASSWORD="${NEO4J_PASSWORD:-ptkg-test-password}"
DATA="${NEO4J_DATA:-$PROJ/target/data}"
RUN_DIR="${NEO4J_RUN_DIR:-$PROJ/target}"
TIMEOUT="${NEO4J_START_TIMEOUT:-120}"
HEAP="${NEO4J_HEAP:-1g}"
PAGECACHE="${NEO4J_PAGECACHE:-256m}"
JAVA="${JAVA:-java}"
MVN="${MVN:-mvn}"
JAR="$PROJ/target/ptkg-neo4j-embedded.jar"
MAIN=ptkg.neo4j.EmbeddedNeo4j
PIDFILE="$RUN_DIR/neo4j.pid"
LOG="$RUN_DIR/neo4j.log"

say() { echo "neo4j-start: $*" >&2; }

if ! [[ "$HTTP_PORT" =~ ^[0-9]{1,5}$ ]] || (( 10#$HTTP_PORT > 65535 )); then
    say "NEO4J_HTTP_PORT must be a port number, or 0 for no HTTP connector (not '$HTTP_PORT')"
    exit 2
fi
HTTP_PORT=$((10#$HTTP_PORT))
if (( HTTP_PORT != 0 && HTTP_PORT == PORT )); then
    say "NEO4J_HTTP_PORT and NEO4J_PORT must differ (both $PORT)"
    exit 2
fi
if (( ${#PASSWORD} < 8 )); then
    say "NEO4J_PASSWORD must have at least 8 characters (Neo4j's minimum)"
    exit 2
fi

# ---- build if needed ------------------------------------------------------------------------
needs_build() {
    [[ -f "$JAR" && -d "$PROJ/target/lib" ]] || return 0
    [[ -n "$(find "$PROJ/pom.xml" "$PROJ/src" -newer "$JAR" -print -quit)" ]]
}
mkdir -p "$PROJ/target"
have_flock=false; command -v flock >/dev/null && have_flock=true
if $have_flock; then exec 8>"$PROJ/target/.build.lock"; flock 8; fi  # one build at a time
if needs_build; then
    say "building $PROJ (first build downloads ~170 MB from Maven Central into ~/.m2)"
    t0=$SECONDS
    if ! (cd "$PROJ" && "$MVN" -B -Dstyle.color=never package) >"$PROJ/target/build.log" 2>&1; then
        say "Maven build failed; last lines of $PROJ/target/build.log:"
        tail -n 40 "$PROJ/target/build.log" >&2
        exit 1
    fi
    touch "$JAR"
    say "built in $((SECONDS - t0)) s"
fi
if $have_flock; then exec 8>&-; fi

mkdir -p "$RUN_DIR" "$DATA"
DATA="$(cd "$DATA" && pwd)"
# One start at a time per NEO4J_RUN_DIR (parallel test workers may all call this script).
if $have_flock; then exec 9>"$RUN_DIR/neo4j.lock"; flock 9; fi

# ---- helpers ----------------------------------------------------------------------------------
alive() {  # true while the process exists and is not a zombie
    local state
    kill -0 "$1" 2>/dev/null || return 1
    state="$(sed -e 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)"
    [[ -n "$state" && "$state" != Z ]]
}
our_pid() {  # prints the pid from the pid file if that process is alive and is our server
    local pid
    [[ -f "$PIDFILE" ]] || return 1
    pid="$(tr -dc '0-9' <"$PIDFILE")"
    [[ -n "$pid" ]] && alive "$pid" || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$MAIN" || return 1
    echo "$pid"
}
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/${1:-$PORT}") 2>/dev/null; }
browser_note() { (( HTTP_PORT )) && echo ", Neo4j Browser http://127.0.0.1:$HTTP_PORT/browser/" || true; }
bolt_check() {  # a real Bolt session: RETURN 1 with the password
    NEO4J_PASSWORD="$PASSWORD" "$JAVA" -Xmx128m -XX:TieredStopAtLevel=1 -cp "$JAR" "$MAIN" check --port "$PORT" >/dev/null 2>&1
}
python_check() {
    [[ -n "${PYTHON:-}" ]] || return 0
    NEO4J_PORT="$PORT" NEO4J_PASSWORD="$PASSWORD" "$PYTHON" - <<'EOF'
import os
from neo4j import GraphDatabase
uri = "bolt://127.0.0.1:" + os.environ["NEO4J_PORT"]
with GraphDatabase.driver(uri, auth=("neo4j", os.environ["NEO4J_PASSWORD"])) as d:
    assert d.execute_query("RETURN 1 AS x").records[0]["x"] == 1
EOF
}
show_logs() {
    say "last lines of $LOG:"
    tail -n 40 "$LOG" >&2 2>/dev/null || true
    if [[ -f "$DATA/logs/debug.log" ]]; then
        say "last lines of $DATA/logs/debug.log:"
        tail -n 20 "$DATA/logs/debug.log" >&2 || true
    fi
}

# ---- already running? ----------------------------------------------------------------------
if pid="$(our_pid)"; then
    if grep -q PTKG_NEO4J_READY "$LOG" 2>/dev/null; then
        if bolt_check && python_check; then
            say "already running (pid $pid) and answering on bolt://127.0.0.1:$PORT"
            if (( HTTP_PORT )) && ! grep -q "browser=http://127.0.0.1:$HTTP_PORT/" "$LOG"; then
                say "note: it was not started with NEO4J_HTTP_PORT=$HTTP_PORT (stop and start it again for that)"
            fi
            exit 0
        fi
        say "a server of $RUN_DIR is running (pid $pid) but does not answer RETURN 1 on"
        say "bolt://127.0.0.1:$PORT with this NEO4J_PASSWORD (other port or password?);"
        say "stop it with docker/neo4j-stop.sh, or give this one its own NEO4J_RUN_DIR"
        exit 1
    fi
    say "pid $pid is running but not ready yet; waiting for it"
else
    rm -f "$PIDFILE"
    if port_open; then
        say "port 127.0.0.1:$PORT is already in use by another process (not ours); set NEO4J_PORT"
        exit 1
    fi
    if (( HTTP_PORT )) && port_open "$HTTP_PORT"; then
        say "port 127.0.0.1:$HTTP_PORT is already in use by another process; set NEO4J_HTTP_PORT"
        exit 1
    fi
    [[ -f "$LOG" ]] && mv -f "$LOG" "$LOG.prev"
    # JVM flags as in Neo4j 5.26's own neo4j.conf (server.jvm.additional) that matter on Java 17.
    # shellcheck disable=SC2086
    NEO4J_PASSWORD="$PASSWORD" nohup "$JAVA" \
        -Xms256m -Xmx"$HEAP" \
        -XX:+UseG1GC -XX:-OmitStackTraceInFastThrow \
        -XX:+UnlockExperimentalVMOptions -XX:+TrustFinalNonStaticFields -XX:+DisableExplicitGC \
        -Djdk.nio.maxCachedBufferSize=1024 -Dio.netty.tryReflectionSetAccessible=true \
        -Djdk.tls.ephemeralDHKeySize=2048 -Djdk.tls.rejectClientInitiatedRenegotiation=true \
        -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints \
        --add-opens=java.base/java.nio=ALL-UNNAMED \
        --add-opens=java.base/java.io=ALL-UNNAMED \
        --add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
        -Dlog4j2.disable.jmx=true -Dfile.encoding=UTF-8 \
        ${NEO4J_JAVA_OPTS:-} \
        -cp "$JAR" "$MAIN" serve \
        --port "$PORT" --http-port "$HTTP_PORT" --data "$DATA" --pagecache "$PAGECACHE" --pidfile "$PIDFILE" \
        >"$LOG" 2>&1 </dev/null 9>&- &
    pid=$!
    echo "$pid" >"$PIDFILE"
    say "started pid $pid (log $LOG, data $DATA), waiting up to ${TIMEOUT}s for bolt://127.0.0.1:$PORT"
fi

# ---- wait for readiness ----------------------------------------------------------------------
t0=$SECONDS
while :; do
    if ! alive "$pid"; then
        say "the server (pid $pid) exited during startup"
        rm -f "$PIDFILE"
        show_logs
        exit 1
    fi
    if grep -q PTKG_NEO4J_READY "$LOG" 2>/dev/null && python_check 2>/dev/null; then
        say "ready after $((SECONDS - t0)) s: bolt://127.0.0.1:$PORT (user neo4j)$(browser_note), pid $pid"
        exit 0
    fi
    if (( SECONDS - t0 >= TIMEOUT )); then
        say "not ready after ${TIMEOUT}s; stopping pid $pid"
        show_logs
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 30); do alive "$pid" || break; sleep 1; done
        kill -KILL "$pid" 2>/dev/null || true
        rm -f "$PIDFILE"
        exit 1
    fi
    sleep 0.5
done
