#!/usr/bin/env python3
"""Decide whether llama-server may repack the model's weights on this CPU: prints --repack or --no-repack.

  repack_check.py LLAMA_SERVER GGUF VERDICT_DIR [--jinja|--no-jinja]

Repacked CPU kernels process prompts 2-2.6x faster here (measured: 70.9 vs 27-39 prompt tokens/s for
qwen2.5-coder-1.5b Q4_K_M on a 2-core AMD EPYC), but on this project's Intel Xeon VMs (AVX-512 with FP16) they
computed garbage ("What is the capital of France?" -> "000x,9"). So the answer is measured, not assumed: a
throw-away llama-server with --repack answers that question greedily; "Paris" keeps repacking on. The verdict is
stored in VERDICT_DIR (beside the binary, which is built per CPU, so a verdict never travels to another CPU)
and the check runs once per binary and model file: the file's real path names the verdict, so a model reached
through a symlinked cache (the test suite's) finds the verdict of the file it is, and two servers starting at
once check once (a lock on VERDICT_DIR; the second reads the first one's verdict). A check that could not run
(the server did not start, no answer) means --no-repack this time, without a verdict: the slow path is always
right. Stdlib only.
"""
import fcntl
import hashlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

QUESTION = "What is the capital of France? Answer with the city name only."
START_TIMEOUT_S = 180


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ask(port):
    body = {"messages": [{"role": "user", "content": QUESTION}], "temperature": 0, "max_tokens": 8, "cache_prompt": False}
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as resp:
        return json.load(resp)["choices"][0]["message"]["content"]


def healthy(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as resp:
            return resp.status == 200
    except Exception:
        return False


def check(server, gguf, jinja):
    port = free_port()
    args = [server, "-m", gguf, "--host", "127.0.0.1", "--port", str(port), "-c", "512", "--parallel", "1", "--repack", "--no-webui", jinja, "-t", "1", "-tb", str(min(os.cpu_count() or 2, 2))]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        deadline = time.time() + START_TIMEOUT_S
        while not healthy(port):
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError("the check server did not start")
            time.sleep(0.2)
        answer = ask(port)
        return "paris" in answer.lower(), answer.strip()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def verdict_path(verdict_dir, gguf):
    """repack-verdict-KEY, KEY the first 12 hex digits of the sha256 of the model's real path."""
    key = hashlib.sha256(os.fsencode(os.path.realpath(gguf))).hexdigest()[:12]  # the bytes bash hashed
    return os.path.join(verdict_dir, f"repack-verdict-{key}")


def kept_verdict(verdict_file):
    """The verdict an earlier check kept: "repack", "no-repack", or None."""
    try:
        with open(verdict_file) as f:
            verdict = f.read().strip()
    except OSError:
        return None
    return verdict if verdict in ("repack", "no-repack") else None


def locked(verdict_dir):
    """An exclusive lock on the verdict folder, so that two servers starting at once check once; None without one."""
    try:
        fd = os.open(verdict_dir, os.O_RDONLY)
    except OSError:
        return None
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def main():
    server, gguf, verdict_dir = sys.argv[1:4]
    jinja = sys.argv[4] if len(sys.argv) > 4 else "--jinja"
    verdict_file = verdict_path(verdict_dir, gguf)
    verdict = kept_verdict(verdict_file)
    if verdict is None:
        lock = locked(verdict_dir)
        try:
            # Another start may have checked while this one waited for the lock.
            verdict = kept_verdict(verdict_file) or check_and_keep(server, gguf, jinja, verdict_file)
        finally:
            if lock is not None:
                os.close(lock)
    print(f"--{verdict}")


def check_and_keep(server, gguf, jinja, verdict_file):
    """Asks the throw-away server and keeps its verdict; "no-repack", not kept, when the check could not run."""
    try:
        right, answer = check(server, gguf, jinja)
    except Exception as error:  # the check could not run: the path that is always right, and no verdict kept
        sys.stderr.write(f"[local-model] weight repacking not checked ({error}); using --no-repack\n")
        return "no-repack"
    verdict = "repack" if right else "no-repack"
    sys.stderr.write(f"[local-model] weight repacking on this CPU: {'right' if right else 'WRONG'} (asked the capital of France: {answer!r}); using --{verdict}\n")
    tmp = f"{verdict_file}.{os.getpid()}"
    try:
        with open(tmp, "w") as f:
            f.write(verdict + "\n")
        os.replace(tmp, verdict_file)
    except OSError as error:  # a read-only binary folder (a system llama-server): the verdict holds for this start only
        sys.stderr.write(f"[local-model] repack verdict not kept ({error})\n")
    return verdict


if __name__ == "__main__":
    main()
