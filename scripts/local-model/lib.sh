# shellcheck shell=bash
# Shared helpers for scripts/local-model/*.sh. Source it; do not run it.
#
# Everything downloaded or built lives OUTSIDE the clone, in
#   ${CODEWIKI_CACHE_DIR:-$HOME/.cache/codewiki}
# keyed by version, so a second run only checks markers and hashes.

LM_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LM_CACHE="${CODEWIKI_CACHE_DIR:-${HOME:-/root}/.cache/codewiki}"
LM_MANIFEST="$LM_DIR/models.json"

# Progress and diagnostics go to stderr; stdout is reserved for the result line.
lm_log() { printf '[local-model] %s\n' "$*" >&2; }
lm_die() { printf '[local-model] error: %s\n' "$*" >&2; exit 1; }

lm_now() { date +%s; }

lm_sha256() { sha256sum "$1" | cut -d' ' -f1; }

# lm_lock NAME: take an exclusive lock (fd 9) so that concurrent runs (parallel
# tests, two terminals) never build or download the same thing twice at once.
# Taking the lock this process already holds is a no-op: reopening fd 9 would
# release it for a moment and log a wait for ourselves.
LM_LOCK_HELD=""
lm_lock() {
  [ "$LM_LOCK_HELD" = "$1" ] && return 0
  local lockfile="$LM_CACHE/locks/$1.lock"
  mkdir -p "$LM_CACHE/locks"
  exec 9>"$lockfile"
  if command -v flock >/dev/null 2>&1; then
    if ! flock -n 9; then
      lm_log "waiting for another run holding $lockfile ..."
      flock 9
    fi
  fi
  LM_LOCK_HELD="$1"
}

# lm_python: a python3 for reading the manifest and GGUF headers (stdlib only).
lm_python() {
  local py
  for py in python3 python; do
    if command -v "$py" >/dev/null 2>&1; then
      command -v "$py"
      return 0
    fi
  done
  lm_die "python3 is required (it reads models.json and GGUF headers)"
}

LM_APT_UPDATED=""
# lm_apt_install PKG...: install Debian packages (root, or passwordless sudo).
lm_apt_install() {
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo="sudo -n"
    else
      lm_die "missing tools ($*); install them: apt-get install $*"
    fi
  fi
  command -v apt-get >/dev/null 2>&1 || lm_die "missing tools ($*) and no apt-get to install them"
  if [ -z "$LM_APT_UPDATED" ]; then
    lm_log "apt-get update (once) ..."
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 || lm_die "apt-get update failed"
    LM_APT_UPDATED=1
  fi
  lm_log "apt-get install $* ..."
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2 \
    || lm_die "apt-get install $* failed"
}
