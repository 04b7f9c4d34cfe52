"""Runs a command whose standard output is a pipe that nobody reads any more (its read end closed
before the command starts), with SIGPIPE ignored as a shell's `trap '' PIPE` does, so that every
write fails with EPIPE. The command must exit with code 1 and say that it could not write its
standard output; and with SIGPIPE at its default it must not exit with 0 either.

Usage: python3 closed_pipe.py COMMAND [ARGS...]
"""
import os
import signal
import subprocess
import sys

cmd = sys.argv[1:]
failures = []
for ignore in (True, False):
    r, w = os.pipe()
    os.close(r)
    pre = (lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN)) if ignore else None
    p = subprocess.run(cmd, stdout=w, stderr=subprocess.PIPE, preexec_fn=pre)
    os.close(w)
    err = p.stderr.decode(errors="replace")
    if ignore and (p.returncode != 1 or not ("standard output" in err or "cannot write" in err)):
        failures.append(f"SIGPIPE ignored: exit code {p.returncode}, expected 1 and a message; stderr: {err!r}")
    if not ignore and p.returncode == 0:
        failures.append(f"SIGPIPE at its default: exit code 0; stderr: {err!r}")
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
