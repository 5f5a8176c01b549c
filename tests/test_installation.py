"""The set-up installs propstab for real: the class of bug where the checkout's own
source folder hides a missing install.

Run from outside the checkout (``cwd=/``, isolated mode), ``import propstab`` must
resolve to the checkout under test, and the ``propstab`` console script must be on
PATH and run that same code. A test run from the checkout itself cannot see either
defect, because the working directory is on ``sys.path``.
"""
import os
import pathlib
import shutil
import sys

import shared  # tests/shared.py: processes under a timeout

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _outside(args, **kwargs):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return shared.run(
        args, cwd="/", env=env, capture_output=True, text=True, timeout=120, **kwargs
    )


def test_import_outside_checkout_resolves_to_this_checkout():
    out = _outside(
        [
            sys.executable,
            "-I",
            "-c",
            "import propstab, pathlib; print(pathlib.Path(propstab.__file__).resolve())",
        ]
    )
    assert out.returncode == 0, (
        "`import propstab` fails outside the checkout: propstab is not installed "
        f"(run scripts/setup.sh): {out.stderr.strip().splitlines()[-1:]}"
    )
    location = pathlib.Path(out.stdout.strip())
    assert location.parent.parent == ROOT, (
        f"`import propstab` outside the checkout resolves to {location}, "
        f"not to the checkout under test {ROOT}"
    )


def test_console_script_on_path_runs_this_checkout():
    exe = shutil.which("propstab")
    assert exe is not None, f"the `propstab` command is not on PATH ({os.environ.get('PATH')})"
    out = _outside([exe, "--version"])
    assert out.returncode == 0, out.stderr
    import propstab

    version, _, rest = out.stdout.strip().partition(" from ")
    assert version == f"propstab {propstab.__version__}"
    # The script's interpreter imports the same checkout.
    location = rest.rsplit(" (python", 1)[0]
    assert (
        pathlib.Path(location) == ROOT / "propstab"
    ), f"the `propstab` command runs the package at {location}, not the checkout {ROOT}"
