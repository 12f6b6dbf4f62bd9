#!/usr/bin/env bash
# serve.sh: the embedded default local model. Ensures llama-server and a pinned model
# (fetched/built into the cache on first use), starts llama-server on 127.0.0.1 and,
# once GET /health answers 200 and /v1/models lists the model, prints exactly one
# line to stdout:
#
#   local model ready: http://127.0.0.1:PORT/v1 model=NAME
#
# then stays in the foreground until killed. The script execs llama-server, so the
# script's PID *is* the server: SIGTERM/SIGINT (or SIGKILL) on it stops the server.
#
# Usage:
#   scripts/local-model/serve.sh [--model NAME | --gguf PATH] [-- LLAMA_SERVER_ARGS...]
#     --model NAME   a pinned model from models.json (default: its defaultModel)
#     --gguf PATH    serve your own GGUF; model name = file basename without .gguf
#     -- ARGS        passed through to llama-server (e.g. -- --parallel 2)
# Env:
#   PORT                      port to listen on (default: a free port)
#   CODEWIKI_CACHE_DIR        cache root (default ~/.cache/codewiki)
#   CODEWIKI_SERVE_LOG        llama-server log file (default CACHE/logs/llama-server-PORT.log;
#                             "-" sends it to stderr)
#   CODEWIKI_CTX_SIZE         override the context size
#   CODEWIKI_THREADS          llama-server generation threads (default: 1 on <= 2 cores,
#                             else llama.cpp's default)
#   CODEWIKI_SERVE_TIMEOUT    seconds to wait for /health (default 600)
#   CODEWIKI_LLAMA_SERVER     use this llama-server binary instead of the cached build
#   CODEWIKI_REPACK           on|off: weight repacking without the once-per-CPU check (default: checked)
#   CODEWIKI_SERVE_DETACHED=1 keep serving when the process that started serve.sh exits
#                             (by default the server is stopped then)
#   CODEWIKI_SERVE_LEASES=DIR once ready, serve while DIR holds a live lease and stop when none is
#                             left, instead of watching the parent (lease-watch.sh). The extension
#                             and the CLI share one server this way (src/core/localModel/).
# Saved prompt caches live in CACHE/slots/NAME (a file per workspace, model and agent variant,
# removed after 14 days unused); the repacking verdict beside the llama-server binary.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PY="$(lm_python)"

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}" >&2; exit "${1:-2}"; }

MODEL_NAME=""
GGUF=""
EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    --model) [ $# -ge 2 ] || usage; MODEL_NAME="$2"; shift 2 ;;
    --model=*) MODEL_NAME="${1#--model=}"; shift ;;
    --gguf) [ $# -ge 2 ] || usage; GGUF="$2"; shift 2 ;;
    --gguf=*) GGUF="${1#--gguf=}"; shift ;;
    -h|--help) usage 0 ;;
    --) shift; EXTRA=("$@"); break ;;
    *) lm_log "unknown argument: $1 (llama-server arguments go after --)"; usage ;;
  esac
done
[ -z "$MODEL_NAME" ] || [ -z "$GGUF" ] || lm_die "--model and --gguf are exclusive"

T0=$(lm_now)
# 1. Server binary (built on first use: ~10 min).
# (through bash: a VSIX install may not keep the scripts' executable bits)
BIN="$(bash "$LM_DIR/ensure-llama-server.sh" | tail -n 1)"
[ -x "$BIN" ] || lm_die "no llama-server binary"

# 2. Model and its settings.
if [ -n "$GGUF" ]; then
  [ -f "$GGUF" ] || lm_die "--gguf $GGUF: no such file"
  "$PY" "$LM_DIR/gguf_info.py" --check "$GGUF" || lm_die "--gguf $GGUF is not a readable GGUF file"
  MODEL_PATH="$(cd "$(dirname "$GGUF")" && pwd)/$(basename "$GGUF")"
  NAME="$(basename "$GGUF")"
  NAME="${NAME%.gguf}"
  # Context: the model's trained context, capped at 8192 (2-core CPU); --jinja when
  # the file has a chat template (llama.cpp then parses native tool calls).
  read -r CTX JINJA TOOLS < <("$PY" -B - "$MODEL_PATH" "$LM_DIR" <<'EOF'
import sys
sys.path.insert(0, sys.argv[2])
import gguf_info
s = gguf_info.summary(sys.argv[1])
ctx = min(int(s.get("context_length") or 4096), 8192)
print(ctx, "yes" if s["chat_template"] else "no", s["chat_template_tools"])
EOF
)
else
  NAME="${MODEL_NAME:-$("$PY" "$LM_DIR/models.py" default)}"
  "$PY" "$LM_DIR/models.py" info "$NAME" >/dev/null || exit 1
  MODEL_PATH="$(bash "$LM_DIR/ensure-model.sh" "$NAME" | tail -n 1)"
  read -r CTX JINJA TOOLS < <("$PY" - "$LM_MANIFEST" "$NAME" <<'EOF'
import json, sys
e = json.load(open(sys.argv[1]))["models"][sys.argv[2]]
print(e["ctxSize"], "yes" if e["jinja"] else "no", "yes" if e["chatTemplateTools"] else "no")
EOF
)
fi
[ -f "$MODEL_PATH" ] || lm_die "model file missing: $MODEL_PATH"
CTX="${CODEWIKI_CTX_SIZE:-$CTX}"

# 3. Port and log.
if [ -z "${PORT:-}" ]; then
  PORT="$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
fi
case "$PORT" in ''|*[!0-9]*) lm_die "PORT must be a number, got '$PORT'" ;; esac
LOG="${CODEWIKI_SERVE_LOG:-$LM_CACHE/logs/llama-server-$PORT.log}"
if [ "$LOG" != "-" ]; then
  mkdir -p "$(dirname "$LOG")"
  : >"$LOG"
fi
# Old default logs (one per port) would pile up: drop those older than a week.
find "$LM_CACHE/logs" -maxdepth 1 -name 'llama-server-*.log' -mtime +7 -delete 2>/dev/null || true

ARGS=(-m "$MODEL_PATH" --alias "$NAME" --host 127.0.0.1 --port "$PORT" -c "$CTX" --temp 0 --no-webui)
if [ "$JINJA" = yes ]; then ARGS+=(--jinja); else ARGS+=(--no-jinja); fi
# Threads. llama.cpp's default (one per physical core) spin-waits at every barrier;
# on a 2-core machine that also runs tests, one descheduled thread stalls the other
# and generation drops ~10x (measured here: 0.7 tok/s with -t 2 vs 6-10 tok/s with
# -t 1 for the 1.5B model under load). So on <= 2 cores: 1 generation thread and 2
# for prompt batches. CODEWIKI_THREADS overrides; a -t/-tb after -- wins anyway.
NCPU="$(nproc 2>/dev/null || echo 2)"
if [ -n "${CODEWIKI_THREADS:-}" ]; then
  ARGS+=(-t "$CODEWIKI_THREADS")
elif [ "$NCPU" -le 2 ]; then
  ARGS+=(-t 1 -tb "$NCPU")
fi
# Weight repacking, where it computes right. Repacked CPU kernels process prompts 2-2.6x faster (measured on a
# 2-core AMD EPYC: 70.9 vs 27-39 prompt tokens/s for the 1.5B model, answers right), but on this project's Intel
# Xeon VMs (AVX-512 with FP16) they computed garbage: "What is the capital of France?" -> "000x,9", and the 1.5B
# model wrote "<tools></tools>" instead of tool calls. So repack_check.py asks that question of a throw-away
# server with --repack, once per binary (built per CPU) and model file, and keeps the verdict beside the binary.
# CODEWIKI_REPACK=on|off skips the check; a "--repack" or "--no-repack" after -- wins anyway.
case "${CODEWIKI_REPACK:-auto}" in
  on) ARGS+=(--repack) ;;
  off) ARGS+=(--no-repack) ;;
  *)
    JINJA_FLAG=--no-jinja; [ "$JINJA" = yes ] && JINJA_FLAG=--jinja
    ARGS+=("$("$PY" "$LM_DIR/repack_check.py" "$BIN" "$MODEL_PATH" "$(dirname "$BIN")" "$JINJA_FLAG")")
    ;;
esac
# The prompt cache (docs/local-model.md, "Prompt cache"). Prompt processing is ~30 tokens/s here, so a prompt
# computed once must never be computed again:
# - one slot: one user's requests all meet the prefixes that slot holds (with several, a request that finds its
#   slot busy starts cold on another, splitting 2 cores); other prompt families wait in llama-server's RAM cache
#   (--cache-ram, 8 GiB by default) and come back from there;
# - --cache-reuse 256: after a divergence in the middle (an edited history), chunks of 256+ tokens that still
#   match are shifted into place instead of computed;
# - --slot-save-path: CodeWiki saves a workspace's computed prompt there and restores it after a restart
#   (POST /slots/0?action=save|restore). Files untouched for two weeks are removed below.
SLOTS="$LM_CACHE/slots/$NAME"
mkdir -p "$SLOTS"
find "$SLOTS" -maxdepth 1 -name '*.bin' -mtime +14 -delete 2>/dev/null || true
ARGS+=(--parallel 1 --cache-reuse 256 --slot-save-path "$SLOTS/")
# A small model can write on without end: the 135M test model generated 6,000 tokens for a one-sentence question on an
# AVX2 machine. No answer a user waits for needs more than 2,048; `-- --n-predict N` (later arguments win) changes it.
ARGS+=(--n-predict "${CODEWIKI_N_PREDICT:-2048}")
ARGS+=("${EXTRA[@]}")

lm_log "model $NAME: $MODEL_PATH (ctx $CTX, jinja $JINJA, template tools $TOOLS)"
lm_log "llama-server log: $LOG"
lm_log "starting: $BIN ${ARGS[*]}"

# 4. A watcher polls /health, checks /v1/models, then prints the ready line; the
#    script itself execs llama-server (same PID), so killing the script kills it.
SERVER_PID=$$
# The process that started us. If it goes away without stopping the server (a test
# runner that crashed or was SIGKILLed), the watcher stops the server so that no
# llama-server is left eating the CPU. CODEWIKI_SERVE_DETACHED=1 turns that off.
PARENT_PID=$PPID
URL="http://127.0.0.1:$PORT"
TIMEOUT="${CODEWIKI_SERVE_TIMEOUT:-600}"
# (double fork: the watcher is re-parented to init, so no zombie is left under the server)
( (
  trap - EXIT
  if command -v curl >/dev/null 2>&1; then
    code() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$1" 2>/dev/null || true; }
    body() { curl -s --max-time 10 "$1"; }
  else
    code() { "$PY" -c '
import sys, urllib.request, urllib.error
try: print(urllib.request.urlopen(sys.argv[1], timeout=5).status)
except urllib.error.HTTPError as e: print(e.code)
except Exception: print(0)' "$1"; }
    body() { "$PY" -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' "$1"; }
  fi
  deadline=$(( $(lm_now) + TIMEOUT ))
  last=$(lm_now)
  while :; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      lm_log "llama-server exited before it was ready"
      [ "$LOG" = "-" ] || { lm_log "last lines of $LOG:"; tail -n 25 "$LOG" >&2; }
      exit 1
    fi
    [ "$(code "$URL/health")" = 200 ] && break
    if [ "$(lm_now)" -ge "$deadline" ]; then
      lm_log "llama-server not ready after ${TIMEOUT}s; stopping it (log: $LOG)"
      kill -TERM "$SERVER_PID" 2>/dev/null || true
      exit 1
    fi
    if [ $(( $(lm_now) - last )) -ge 10 ]; then
      lm_log "waiting for llama-server to load the model ..."
      last=$(lm_now)
    fi
    sleep 0.2
  done
  if ! body "$URL/v1/models" | "$PY" -c '
import json, sys
ids = [m.get("id") for m in json.load(sys.stdin).get("data", [])]
sys.exit(0 if sys.argv[1] in ids else 1)' "$NAME"; then
    lm_log "/v1/models does not list '$NAME'; stopping llama-server"
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    exit 1
  fi
  lm_log "ready after $(( $(lm_now) - T0 ))s"
  echo "local model ready: $URL/v1 model=$NAME"
  # Let go of the caller's stdout/stderr, then watch the leases or the parent.
  exec >/dev/null 2>&1 </dev/null
  [ -z "${CODEWIKI_SERVE_LEASES:-}" ] || exec bash "$LM_DIR/lease-watch.sh" "$SERVER_PID" "$CODEWIKI_SERVE_LEASES"
  [ "${CODEWIKI_SERVE_DETACHED:-}" != 1 ] && [ "$PARENT_PID" -gt 1 ] || exit 0
  while kill -0 "$SERVER_PID" 2>/dev/null; do
    if ! kill -0 "$PARENT_PID" 2>/dev/null; then
      kill -TERM "$SERVER_PID" 2>/dev/null || true
      exit 0
    fi
    sleep 2
  done
) & )

if [ "$LOG" = "-" ]; then
  exec "$BIN" "${ARGS[@]}" >&2
else
  exec "$BIN" "${ARGS[@]}" >"$LOG" 2>&1 </dev/null
fi
