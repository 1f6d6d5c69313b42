#!/usr/bin/env bash
# Stop the server that docker/neo4j-start.sh started.
#
#   docker/neo4j-stop.sh          SIGTERM (clean shutdown: checkpoint, stores closed), wait up to
#                                 NEO4J_STOP_TIMEOUT seconds (default 60), then SIGKILL
#   docker/neo4j-stop.sh --kill   SIGKILL at once (a crash, for recovery tests); the next
#                                 docker/neo4j-start.sh on the same NEO4J_DATA recovers the store
#
# Environment: NEO4J_RUN_DIR (where neo4j.pid is; default docker/neo4j-embedded/target),
# NEO4J_STOP_TIMEOUT. Exits 0 when nothing is running.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
RUN_DIR="${NEO4J_RUN_DIR:-$HERE/neo4j-embedded/target}"
PIDFILE="$RUN_DIR/neo4j.pid"
TIMEOUT="${NEO4J_STOP_TIMEOUT:-60}"
MAIN=ptkg.neo4j.EmbeddedNeo4j

say() { echo "neo4j-stop: $*" >&2; }
alive() {  # true while the process exists and is not a zombie
    local state
    kill -0 "$1" 2>/dev/null || return 1
    state="$(sed -e 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)"
    [[ -n "$state" && "$state" != Z ]]
}

signal=TERM
case "${1:-}" in
    "") ;;
    --kill|-9|-KILL|KILL) signal=KILL ;;
    *) say "usage: $0 [--kill]"; exit 2 ;;
esac

if [[ ! -f "$PIDFILE" ]]; then
    say "not running (no $PIDFILE)"
    exit 0
fi
pid="$(tr -dc '0-9' <"$PIDFILE")"
if [[ -z "$pid" ]] || ! alive "$pid" \
        || ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$MAIN"; then
    say "not running (stale pid file removed)"
    rm -f "$PIDFILE"
    exit 0
fi

kill "-$signal" "$pid"
t0=$SECONDS
while alive "$pid"; do
    if (( SECONDS - t0 >= TIMEOUT )); then
        say "pid $pid still alive after ${TIMEOUT}s; sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
        sleep 1
        break
    fi
    sleep 0.2
done
rm -f "$PIDFILE"
say "stopped pid $pid (SIG$signal) in $((SECONDS - t0)) s"
