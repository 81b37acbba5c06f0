"""A child process that runs `leges` commands for the fuzzer, one JSON request a line.

Running the commands in-process (Leges and its grammar imported once) is some ten times faster
than a new interpreter per command; running them in a child keeps the caps real: the child's
address space is limited (RLIMIT_AS), and the fuzzer kills it when a command overruns its time.
A request is {"cwd": folder, "argv": [...]} (argv ["load", PATH] times `leges.load` alone); the answer
{"status", "out", "err", "seconds", "cpu"}
(wall-clock and processor seconds: the machine may be shared, so speed is judged by the latter).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import time


def limit_memory(megabytes: int) -> None:
    try:
        import resource
        size = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    except (ImportError, ValueError, OSError):  # not on this system: the time cap still holds
        pass


def load(path: str) -> int:
    """`leges.load(path)` as the command line reports it: what the two-second promise is about."""
    import leges
    from leges.text.errors import LegesError
    try:
        leges.load(path)
    except LegesError as exc:
        for d in exc.diagnostics:
            print(d.format(), file=sys.stderr)
        return 2
    return 0


def run(argv: list[str], cwd: str) -> dict:
    from leges.cli import main
    out, err = io.StringIO(), io.StringIO()
    start, cpu = time.perf_counter(), time.process_time()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = load(argv[1]) if argv[0] == "load" else main(argv)
    except SystemExit as exc:  # argparse
        status = exc.code if isinstance(exc.code, int) else 2
    except MemoryError:
        status, err = -9, io.StringIO("MemoryError: past the memory cap")
    except BaseException as exc:  # noqa: BLE001 — whatever escaped main() is the finding
        import traceback
        status = -1
        err.write("Traceback (escaped main):\n" + "".join(traceback.format_exception(exc)))
    return {"status": status, "out": out.getvalue()[-20_000:], "err": err.getvalue()[-20_000:],
            "seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu}


def main() -> None:
    limit_memory(int(os.environ.get("LEGES_FUZZ_MEMORY_MB", "2048")))
    import leges.cli  # noqa: F401 — imported before the first request: its time is not the case's
    for line in sys.stdin:
        request = json.loads(line)
        answer = run(request["argv"], request["cwd"])
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
