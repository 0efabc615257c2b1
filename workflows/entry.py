"""The ``baton`` command as a process: import, run ``workflows.cli.main``, exit without tearing down.

A command's own work can be shorter than its start and its end (an unchanged re-run answers in
~0.1 s). Two costs are the interpreter's, not baton's:

- the cyclic garbage collector runs dozens of times while SQLAlchemy, pydantic and the tables are
  imported, walking objects that all live until the process ends: it is paused during the imports,
  and what they made is frozen out of later collections (``gc.freeze``);
- at exit the interpreter frees every module and object one by one: once the command has returned,
  its threads joined, its exit hooks run (the log closed) and its output flushed, the process ends
  at once (``os._exit``). Every store transaction is committed or rolled back inside the command,
  and every lease released, before it returns.

``workflows.cli.main`` stays an ordinary function (tests call it in-process).
"""

from __future__ import annotations

import atexit
import gc
import logging
import os
import sys
import threading
from typing import NoReturn

__all__ = ["run", "finish", "main"]


def run(argv: list[str] | None = None) -> int:
    """Import the CLI with the collector paused, then run it; returns its exit code."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        from workflows.cli import main as cli_main
    finally:
        if enabled:
            gc.enable()
    gc.freeze()
    try:
        return cli_main(argv)
    except SystemExit as exc:  # argparse's --help, --version and usage errors
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(exc.code, file=sys.stderr)
        return 1


def finish(code: int) -> NoReturn:
    """End the process with ``code`` as the interpreter would, less its teardown of every object.

    As ``multiprocessing`` ends a child: non-daemon threads are joined (``threading._shutdown``, which
    also runs ``concurrent.futures``' exit hooks), the ``atexit`` functions run (the log is closed,
    LangChain's callback executor drained), the output is flushed; then ``os._exit``.
    """
    try:
        shutdown = getattr(threading, "_shutdown", None)
        if shutdown is not None:
            shutdown()
        run_exitfuncs = getattr(atexit, "_run_exitfuncs", None)
        if run_exitfuncs is not None:
            run_exitfuncs()
        else:  # not CPython: the interpreter's own exit, teardown included
            sys.exit(code)
        logging.shutdown()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    os._exit(code)


def main() -> NoReturn:
    """The ``baton`` console script."""
    finish(run())
