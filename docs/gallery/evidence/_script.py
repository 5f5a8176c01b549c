"""Run one of the repository's evidence scripts the way its command line does.

Not an example itself (the gallery ignores files whose names start with ``_``).
"""
import pathlib
import runpy
import sys

REPOSITORY = pathlib.Path(__file__).resolve().parents[3]


def run_script(path, *arguments):
    """Run ``REPOSITORY / path`` as ``__main__`` with ``arguments`` on its command line.

    A non-zero exit status (a failed check of a study) raises ``RuntimeError``, which
    fails the gallery's build.
    """
    script = REPOSITORY / path
    saved = sys.argv
    sys.argv = [str(script), *map(str, arguments)]
    try:
        runpy.run_path(str(script), run_name="__main__")
    except SystemExit as stop:
        if stop.code not in (None, 0):
            raise RuntimeError(f"{path} exited with status {stop.code}") from None
    finally:
        sys.argv = saved
