#!/usr/bin/env bash
# lease-watch.sh SERVER_PID DIR: stops SERVER_PID once no lease in DIR holds it any more, then exits; exits too
# when the server stops by itself. serve.sh runs it once the server is ready when CODEWIKI_SERVE_LEASES=DIR is
# set, which is how every VS Code window and CLI call on the machine shares one server (src/core/localModel/).
#
# A lease is a file DIR/NAME.lease holding "PID UNTIL": it holds the server while process PID runs, or until the
# epoch second UNTIL (0: no linger). A window's lease carries its own pid; a finished CLI call leaves one with an
# UNTIL (its idle time). Checked every CODEWIKI_LEASE_POLL seconds (default 2).
set -uo pipefail
SERVER_PID="$1"
DIR="$2"
POLL="${CODEWIKI_LEASE_POLL:-2}"

live_lease() {
  local file pid until now
  now=$(date +%s)
  for file in "$DIR"/*.lease; do
    [ -f "$file" ] || continue
    pid="" until=""
    read -r pid until <"$file" 2>/dev/null
    case "$until" in ''|*[!0-9]*) until=0 ;; esac
    [ "$until" -gt "$now" ] && return 0
    case "$pid" in ''|*[!0-9]*) continue ;; esac
    kill -0 "$pid" 2>/dev/null && return 0
  done
  return 1
}

while kill -0 "$SERVER_PID" 2>/dev/null; do
  if ! live_lease; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    exit 0
  fi
  sleep "$POLL"
done
