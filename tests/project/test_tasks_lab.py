"""``python3 tasks.py lab`` prints the link last, on its own line, once the server answers."""

from __future__ import annotations

import subprocess
import sys

from helpers.core.paths import project_root

# A stand-in for the Jupyter server: log lines, its address with a token, the status API, more
# log lines a moment later (as extensions load), then it stops by itself.
_FAKE_SERVER = r"""
import http.server, sys, threading, time
class Status(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/api/status?token=abc123" else 403)
        self.end_headers()
    def log_message(self, *args):
        pass
httpd = http.server.HTTPServer(("127.0.0.1", 0), Status)
threading.Thread(target=httpd.serve_forever, daemon=True).start()
port = httpd.server_address[1]
print("[I ServerApp] starting", flush=True)
print(f"    http://127.0.0.1:{port}/lab/tree/01_start_here.ipynb?token=abc123", flush=True)
for n in range(3):
    time.sleep(0.2)
    print(f"[I ServerApp] extension {n} loaded", flush=True)
time.sleep(2.5)
print("[I ServerApp] shutting down", flush=True)
"""

_RUN = (
    "import sys, tasks; "
    "sys.exit(tasks.serve_and_announce([sys.executable, '-c', sys.argv[1]], tasks.ROOT, tasks.LAB_START_PAGE,"
    " quiet=0.8))"
)


def test_the_link_comes_after_the_start_up_log_on_its_own_line():
    done = subprocess.run(
        [sys.executable, "-c", _RUN, _FAKE_SERVER],
        cwd=project_root(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # as a terminal shows both
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    opens = [n for n, line in enumerate(lines) if line.startswith("Open: ")]
    assert len(opens) == 1, lines
    (at,) = opens
    assert lines[at] == "Open: " + lines[1].strip()
    assert lines[at - 1] == "" and lines[at + 1] == ""
    assert lines[at - 2] == "[I ServerApp] extension 2 loaded"  # after every start-up line
    assert lines[at + 2 :] == ["[I ServerApp] shutting down"]
