#!/usr/bin/env bash
# ensure-llama-server.sh: make sure a llama.cpp `llama-server` binary exists in the
# cache and works; print its absolute path as the LAST line of stdout.
# Progress goes to stderr.
#
# Source: the npm package node-llama-cpp (version pinned in models.json, tarball
# sha256-checked) ships llama.cpp's source as llama/gitRelease.bundle. We `npm pack`
# it (never `npm install`: that pulls every platform's prebuilt binaries), `git clone`
# the bundle into the cache and build a CPU-only static llama-server with CMake+Ninja.
# First run: ~10 minutes on 2 cores. Later runs: a marker check + `--version`.
#
# `--tool NAME` (e.g. llama-quantize, used by requantize.sh): also build that tool of the same llama.cpp tree, in
# the same build folder (seconds once llama-server is built), and print ITS path instead.
#
# Env:
#   CODEWIKI_CACHE_DIR     cache root (default ~/.cache/codewiki)
#   CODEWIKI_LLAMA_SERVER  use this llama-server binary instead of building one
#   CODEWIKI_BUILD_JOBS    parallel build jobs (default: nproc)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TOOL=""
if [ "${1:-}" = "--tool" ]; then
  TOOL="${2:-}"
  [[ "$TOOL" =~ ^llama-[a-z-]+$ ]] || lm_die "--tool needs a llama.cpp tool name such as llama-quantize (got '${TOOL}')"
fi

if [ -n "${CODEWIKI_LLAMA_SERVER:-}" ]; then
  [ -z "$TOOL" ] || lm_die "--tool $TOOL needs CodeWiki's own llama.cpp build; CODEWIKI_LLAMA_SERVER names another binary"
  [ -x "$CODEWIKI_LLAMA_SERVER" ] || lm_die "CODEWIKI_LLAMA_SERVER=$CODEWIKI_LLAMA_SERVER is not an executable file"
  "$CODEWIKI_LLAMA_SERVER" --version >/dev/null 2>&1 || lm_die "$CODEWIKI_LLAMA_SERVER --version failed"
  echo "$CODEWIKI_LLAMA_SERVER"
  exit 0
fi

PY="$(lm_python)"
# Pins (one source of truth: models.json "server").
read -r NLC_VERSION NLC_SHA256 LLAMA_COMMIT LLAMA_TAG < <("$PY" - "$LM_MANIFEST" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["server"]
print(s["nodeLlamaCppVersion"], s["tarballSha256"], s["llamaCppBundleCommit"], s["llamaCppTag"])
EOF
)

# The build uses -march=native (GGML_NATIVE), so key the binary by the CPU's
# feature flags too: a cache copied to another CPU builds its own binary.
CPU_KEY="$( (grep -m1 -E '^(flags|Features)' /proc/cpuinfo 2>/dev/null || uname -m) | sha256sum | cut -c1-10)"
# Intel AMX stays off even where /proc/cpuinfo lists it: virtual machines often report amx_* without the kernel
# granting the tile state, and the first matrix multiply then dies on ldtilecfg (SIGSEGV, seen on this project's
# machines). Small models gain nothing from AMX. The recipe is part of the key, so a cached AMX build is replaced.
RECIPE="noamx"
EXTRA_FLAGS=""
[ "$(uname -m)" = "x86_64" ] && EXTRA_FLAGS="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
ROOT="$LM_CACHE/llama.cpp/node-llama-cpp-$NLC_VERSION"
SRC="$ROOT/src"
BUILD="$ROOT/build-$CPU_KEY-$RECIPE"
BIN_DIR="$ROOT/bin-$CPU_KEY-$RECIPE"
BIN="$BIN_DIR/llama-server"
MARKER="$BIN_DIR/.complete"
MARKER_TEXT="node-llama-cpp=$NLC_VERSION llama.cpp=$LLAMA_TAG commit=$LLAMA_COMMIT cpu=$CPU_KEY recipe=$RECIPE"

ready() {
  [ -x "$BIN" ] && [ -f "$MARKER" ] && [ "$(cat "$MARKER")" = "$MARKER_TEXT" ] \
    && "$BIN" --version >/dev/null 2>&1
}

JOBS="${CODEWIKI_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}"

# finish: print llama-server's path, or build the requested tool beside it (same tree, same flags) and print that.
finish() {
  if [ -z "$TOOL" ]; then
    echo "$BIN"
    exit 0
  fi
  local tool="$BIN_DIR/$TOOL"
  # Older than the marker: llama-server was rebuilt since (new flags or commit), so the tool is from the old tree.
  if [ ! -x "$tool" ] || [ ! "$tool" -nt "$MARKER" ]; then
    [ -d "$BUILD" ] || lm_die "the build folder $BUILD is gone; remove $MARKER to rebuild llama-server, then ask for $TOOL again"
    lm_lock "llama-server-$NLC_VERSION-$CPU_KEY"
    if [ ! -x "$tool" ] || [ ! "$tool" -nt "$MARKER" ]; then
      lm_log "building $TOOL in $BUILD"
      cmake --build "$BUILD" --target "$TOOL" -j "$JOBS" >"$ROOT/build-$TOOL.log" 2>&1 \
        || { tail -40 "$ROOT/build-$TOOL.log" >&2; lm_die "building $TOOL failed (log: $ROOT/build-$TOOL.log)"; }
      cp -f "$BUILD/bin/$TOOL" "$tool.tmp"
      mv -f "$tool.tmp" "$tool"
    fi
  fi
  echo "$tool"
  exit 0
}

if ready; then
  finish
fi

lm_lock "llama-server-$NLC_VERSION-$CPU_KEY"
if ready; then   # another run finished it while we waited
  finish
fi

T0=$(lm_now)
lm_log "building llama-server (llama.cpp $LLAMA_TAG from node-llama-cpp $NLC_VERSION) in $ROOT"
lm_log "a first build takes about 10 minutes on 2 cores; later runs take seconds"

# 1. Tools.
missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v git >/dev/null 2>&1 || missing+=(git)
command -v npm >/dev/null 2>&1 || lm_die "npm is required (it fetches node-llama-cpp's source bundle)"
if [ ${#missing[@]} -gt 0 ]; then
  lm_log "phase 1/5: installing build tools: ${missing[*]}"
  lm_apt_install "${missing[@]}"
else
  lm_log "phase 1/5: build tools present (cmake, ninja, g++, git)"
fi

# 2. Source tarball (npm pack), sha256-checked.
mkdir -p "$ROOT"
TGZ="$ROOT/node-llama-cpp-$NLC_VERSION.tgz"
if [ -f "$TGZ" ] && [ "$(lm_sha256 "$TGZ")" = "$NLC_SHA256" ]; then
  lm_log "phase 2/5: node-llama-cpp-$NLC_VERSION.tgz already in cache (sha256 ok)"
else
  lm_log "phase 2/5: npm pack node-llama-cpp@$NLC_VERSION (~35 MB) ..."
  rm -f "$TGZ"
  tmpd="$(mktemp -d "$ROOT/.pack.XXXXXX")"
  (cd "$tmpd" && npm pack --silent "node-llama-cpp@$NLC_VERSION" >/dev/null 2>"$tmpd/npm.err") \
    || { cat "$tmpd/npm.err" >&2; rm -rf "$tmpd"; lm_die "npm pack node-llama-cpp@$NLC_VERSION failed"; }
  got="$(lm_sha256 "$tmpd/node-llama-cpp-$NLC_VERSION.tgz")"
  if [ "$got" != "$NLC_SHA256" ]; then
    rm -rf "$tmpd"
    lm_die "node-llama-cpp-$NLC_VERSION.tgz sha256 $got != pinned $NLC_SHA256"
  fi
  mv "$tmpd/node-llama-cpp-$NLC_VERSION.tgz" "$TGZ"
  rm -rf "$tmpd"
fi

# 3. git clone the bundle (skipped when the clone is already at the pinned commit).
if [ -d "$SRC/.git" ] && [ "$(git -C "$SRC" rev-parse HEAD 2>/dev/null)" = "$LLAMA_COMMIT" ] \
   && git -C "$SRC" diff --quiet HEAD 2>/dev/null; then
  lm_log "phase 3/5: llama.cpp source already cloned at ${LLAMA_COMMIT:0:12}"
else
  lm_log "phase 3/5: git clone llama/gitRelease.bundle -> $SRC"
  rm -rf "$SRC" "$ROOT/.bundle"
  mkdir -p "$ROOT/.bundle"
  tar -xzf "$TGZ" -C "$ROOT/.bundle" package/llama/gitRelease.bundle package/llama/llama.cpp.info.json
  git -c advice.detachedHead=false clone -q "$ROOT/.bundle/package/llama/gitRelease.bundle" "$SRC" >&2 || true
  [ -d "$SRC/.git" ] || lm_die "git clone of the bundle failed"
  git -C "$SRC" -c advice.detachedHead=false checkout -q "$LLAMA_COMMIT" \
    || lm_die "bundle does not hold pinned commit $LLAMA_COMMIT"
  rm -rf "$ROOT/.bundle"
fi

# 4. Configure + build.
lm_log "phase 4/5: cmake configure (CPU-only, static, Release, native) -> $BUILD"
cmake -S "$SRC" -B "$BUILD" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_SHARED_LIBS=OFF \
  -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
  -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON \
  -DGGML_NATIVE=ON \
  -DCMAKE_C_FLAGS="$EXTRA_FLAGS" -DCMAKE_CXX_FLAGS="$EXTRA_FLAGS" >"$ROOT/cmake-configure.log" 2>&1 \
  || { tail -40 "$ROOT/cmake-configure.log" >&2; lm_die "cmake configure failed (log: $ROOT/cmake-configure.log)"; }
lm_log "phase 5/5: ninja --target llama-server with $JOBS jobs (progress [done/total] below)"
# Ninja prints one "[n/total] ..." line per step when not on a terminal; keep them
# short so the progress stays readable.
set +e
cmake --build "$BUILD" --target llama-server -j "$JOBS" 2>&1 \
  | tee "$ROOT/build.log" \
  | sed -u -n -E 's#^\[([0-9]+/[0-9]+)\] .* (\S+)$#[local-model] build [\1] \2#p; /error|FAILED/p' >&2
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 0 ] || { tail -40 "$ROOT/build.log" >&2; lm_die "build failed (log: $ROOT/build.log)"; }

mkdir -p "$BIN_DIR"
cp -f "$BUILD/bin/llama-server" "$BIN.tmp"
mv -f "$BIN.tmp" "$BIN"
ver="$("$BIN" --version 2>&1)" || lm_die "built llama-server does not run: $ver"
ver="$(printf '%s\n' "$ver" | grep -m1 '^version:' || true)"
echo "$MARKER_TEXT" >"$MARKER"
lm_log "llama-server ready in $(( $(lm_now) - T0 ))s: $ver"
finish
