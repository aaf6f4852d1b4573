"""A warm interpreter that runs each page script in a fork of its own, as ``python <script>`` would.

Importing torch takes seconds and most page scripts import it: the page runner starts this server once
per worker (``python tools/fork_server.py torch`` imports numpy and torch first, ``... numpy`` only
numpy) and sends it one JSON line per script: ``{"path": "snippets/x/01_y.py", "timeout": 300}``, relative
to the server's working directory, the repository root. The server forks; the child runs the script as
``__main__`` with its folder first on ``sys.path``, ``sys.argv == [path]``, stdin empty, stdout and stderr
to files, and its random generators reseeded from the OS as in a fresh process. The server answers one
JSON line: ``{"returncode": ..., "stdout": ..., "stderr": ...}``. Nothing a script does reaches the next
one: each fork starts from the same just-imported state.
"""

from __future__ import annotations

import json
import os
import random
import runpy
import signal
import sys
import tempfile
import time
import traceback

import numpy as np

if sys.argv[1:] == ["torch"]:
    import torch  # noqa: F401  (imported once here, so that every fork starts with it)


def _run_child(path: str, out: int, err: int) -> None:
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    sys.stdin = open(os.devnull)
    sys.argv = [path]
    sys.path[0] = os.path.dirname(os.path.abspath(path))
    random.seed()  # a fresh process starts from OS entropy: an unseeded script still prints other numbers
    np.random.seed()
    if "torch" in sys.modules:
        sys.modules["torch"].seed()
    code = 0
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
        code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
    except BaseException as e:  # the traceback python itself would print: from the script's frame on
        tb = e.__traceback__
        while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != os.path.abspath(path):
            tb = tb.tb_next
        traceback.print_exception(type(e), e, tb or e.__traceback__)
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _serve(request: dict) -> dict:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            _run_child(request["path"], out.fileno(), err.fileno())
        deadline = time.monotonic() + request.get("timeout", 300)
        while (done := os.waitpid(pid, os.WNOHANG))[0] == 0:
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                done = os.waitpid(pid, 0)
                break
            time.sleep(0.005)
        status = done[1]
        code = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
        if time.monotonic() > deadline:
            code, stderr = -1, stderr + f"\ntimed out after {request.get('timeout', 300)} s"
    return {"returncode": code, "stdout": stdout, "stderr": stderr}


if __name__ == "__main__":
    for line in sys.stdin:
        print(json.dumps(_serve(json.loads(line))), flush=True)
