#!/usr/bin/env bash
# requantize.sh TYPE [NAME]: the pinned model NAME (default: the manifest's defaultModel) quantized again to TYPE
# (Q4_0, Q8_0, ...) with llama.cpp's own llama-quantize, cached beside the pinned file; print the GGUF path as the
# LAST line of stdout. Progress goes to stderr.
#
# For measuring, not for serving by default: the pinned weights are already quantized (Q4_K_M), so a new type is
# made from them (`--allow-requantize`), never from the original weights. Q8_0 keeps what Q4_K_M holds almost
# exactly; Q4_0 rounds it again and may answer worse. `npm run bench -- --only cpu` measures both with sanity
# questions; serve it with `serve.sh --gguf PATH`.
#   scripts/local-model/requantize.sh Q4_0
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TYPE="${1:-}"
[[ "$TYPE" =~ ^[A-Z0-9_]+$ ]] || lm_die "usage: requantize.sh TYPE [NAME]  (TYPE as llama-quantize names it, e.g. Q4_0 or Q8_0)"
NAME="${2:-$("$(lm_python)" "$LM_DIR/models.py" default)}"
SOURCE="$("$LM_DIR/ensure-model.sh" "$NAME" | tail -n 1)"
# Beside the pinned file (its folder is named by its hash), named after the model, so `serve.sh --gguf` serves it
# under a name that still says what it is (and how big: the agent picks its tool set for small models by the name).
OUT="$(dirname "$SOURCE")/$NAME-$TYPE.gguf"
if [ -s "$OUT" ]; then
  echo "$OUT"
  exit 0
fi
lm_lock "requantize-$(basename "$(dirname "$SOURCE")")-$TYPE"
if [ ! -s "$OUT" ]; then
  # Asked for only now: a file made earlier is served without the tool (CODEWIKI_LLAMA_SERVER may name a binary
  # whose build has no llama-quantize).
  QUANTIZE="$("$LM_DIR/ensure-llama-server.sh" --tool llama-quantize | tail -n 1)"
  # In the background and waited for, so that an interrupted run (Ctrl-C, a killed bench) stops the tool and leaves
  # no gigabyte-sized half file behind: bash runs a trap only after a foreground child ends, but wait returns at once.
  QUANTIZE_PID=""
  cleanup() {
    trap '' INT TERM   # a second Ctrl-C must not cut the cleanup short
    if [ -n "$QUANTIZE_PID" ]; then
      kill "$QUANTIZE_PID" 2>/dev/null || true
      wait "$QUANTIZE_PID" 2>/dev/null || true   # gone before the file is removed, so it cannot write it again
    fi
    rm -f "$OUT.tmp"
  }
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  "$QUANTIZE" --allow-requantize "$SOURCE" "$OUT.tmp" "$TYPE" >"$OUT.log" 2>&1 &
  QUANTIZE_PID=$!
  lm_log "quantizing $(basename "$SOURCE") to $TYPE (about a minute) ..."
  status=0
  wait "$QUANTIZE_PID" || status=$?
  QUANTIZE_PID=""   # reaped: its PID is no longer ours to signal
  [ "$status" -eq 0 ] || { tail -20 "$OUT.log" >&2; lm_die "llama-quantize failed (exit $status; log: $OUT.log)"; }
  mv -f "$OUT.tmp" "$OUT"
fi
echo "$OUT"
