"""Every argument error carries its argument (issue 21, "argument rules declared once").

An error about an argument is a :class:`propstab.InvalidParameterError` (a ValueError
and a TypeError with ``.argument``), raised by a declared rule (``propstab._utils.params``) or
by ``propstab._utils.checks.fail``, never a plain ``raise ValueError("q: ...")``: only then
can the R package and the command line name the argument their own way
(``InvalidParameterError.renamed``) without rewriting a message's text.

The scan reads propstab/ by AST. A plain raise of ValueError or TypeError is a call of
the builtin class itself (``raise ValueError(...)``), of ``type(exc)(...)``, or of a
choice between the two (``(TypeError if ... else ValueError)(...)``). Before this test
(main at commit c86ced6) the scan found 189 such raises in 40 modules, 187 of them with
a message that starts with an argument's name (:func:`argument_named_raises`) and two
that name arguments otherwise; now the only plain raise left is the allow-listed one.
"""
from __future__ import annotations

import ast
import pathlib
import re

import pytest

import propstab
from propstab._utils.checks import fail

PACKAGE = pathlib.Path(propstab.__file__).resolve().parent

#: the head of a message that names an argument: ``q: ``, ``Z1, Z2: ``, ``{name}: ``
#: (a formatted name), ``objectives[{}]: ``, ``--option: ``, ``--similarity {}: ``,
#: ``register({}): ``
_TOKEN = (
    r"(?:--[\w-]+(?: \{\})?|[A-Za-z_][\w.]*(?:\[[^\]]*\])*(?:\(\{\}\))?" r"|\{\}(?:\[[^\]]*\])*)"
)
ARGUMENT_HEAD = re.compile(rf"^{_TOKEN}(?:, {_TOKEN})*: ")

#: Plain raises that are not about an argument, by (module, enclosing function): each
#: says why. Keep this list short; an argument's error goes through ``_checks.fail`` or
#: a declared rule.
ALLOWED = {
    # Python's own TypeError for a call that does not bind (an unknown or missing
    # keyword), prefixed with the function's name: the error an undecorated function
    # raises, which no rule of an argument describes (tests/test_fuzz_entry_points.py's
    # test_unknown_keyword_is_named checks it is a TypeError naming the keyword).
    ("_params.py", "wrapper"),
}


def _message(node) -> str | None:
    """The literal text of a message (``{}`` for each formatted part)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _message(node.left)
    return None


def _is_builtin_class(func) -> bool:
    if isinstance(func, ast.Name):
        return func.id in ("ValueError", "TypeError")
    if isinstance(func, ast.IfExp):
        return _is_builtin_class(func.body) and _is_builtin_class(func.orelse)
    return (
        isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "type"
    )  # type(exc)(...)


def plain_raises(root: pathlib.Path = PACKAGE):
    """``(module, function, line, message)`` of every plain ValueError/TypeError raise
    under ``root``."""
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and node.exc is not None):
                continue
            exc = node.exc
            if isinstance(exc, ast.Name) and exc.id in ("ValueError", "TypeError"):
                message = ""  # raise ValueError
            elif isinstance(exc, ast.Call) and _is_builtin_class(exc.func):
                message = _message(exc.args[0]) if exc.args else ""
            else:
                continue
            owner = parents.get(node)
            while owner is not None and not isinstance(
                owner, (ast.FunctionDef, ast.AsyncFunctionDef)
            ):
                owner = parents.get(owner)
            out.append(
                (
                    path.relative_to(root).as_posix(),
                    owner.name if owner is not None else "<module>",
                    node.lineno,
                    message,
                )
            )
    return out


def argument_named_raises(root: pathlib.Path = PACKAGE):
    """The plain raises whose message starts with an argument's name (or is formatted
    from one, ``f"{name}: ..."``)."""
    return [r for r in plain_raises(root) if r[3] is not None and ARGUMENT_HEAD.match(r[3])]


def test_no_plain_raise_names_an_argument():
    found = [
        f"{m}:{line} ({f}) {text!r}"
        for m, f, line, text in argument_named_raises()
        if (m, f) not in ALLOWED
    ]
    assert not found, (
        "plain ValueError/TypeError naming an argument (use "
        "propstab._utils.checks.fail or a declared rule):\n" + "\n".join(found)
    )


def test_every_plain_raise_left_is_allowed_and_every_allowance_is_used():
    """A plain raise that does not start with an argument's name may still be about one
    (``"give either FILE.py:FUNCTION or --measure"``): every plain raise must be in the
    allow-list, and each entry of the list must still match a raise."""
    raises = plain_raises()
    unknown = [
        f"{m}:{line} ({f}) {text!r}" for m, f, line, text in raises if (m, f) not in ALLOWED
    ]
    assert not unknown, "plain ValueError/TypeError not in ALLOWED:\n" + "\n".join(unknown)
    assert ALLOWED <= {(m, f) for m, f, _, _ in raises}, "an ALLOWED entry matches nothing"


def test_the_scan_finds_what_it_forbids(tmp_path):
    """The scan is not blind: each form of a plain raise is found, and fail() is not."""
    (tmp_path / "m.py").write_text(
        "def f(q, exc, x):\n"
        '    raise ValueError(f"q: must be > 0; got {q}")\n'
        "def g(q, exc, x):\n"
        '    raise TypeError("Z1, Z2: not comparable")\n'
        "def h(q, exc, x):\n"
        '    raise type(exc)(f"{x}: {exc}")\n'
        "def i(q, exc, x):\n"
        '    raise (TypeError if q else ValueError)(f"--option {x}: given twice")\n'
        "def j(q, exc, x):\n"
        '    raise ValueError("the solver did not converge")\n'
        "def k(q, exc, x):\n"
        '    fail(f"q: must be > 0; got {q}")\n'
    )
    named = [f for _, f, _, _ in argument_named_raises(tmp_path)]
    assert named == ["f", "g", "h", "i"]
    assert [f for _, f, _, _ in plain_raises(tmp_path)] == ["f", "g", "h", "i", "j"]


@pytest.mark.parametrize(
    "call, argument, kind",
    [
        # a rule of a value (ValueError) and of a type (TypeError), from converted sites
        (
            lambda: propstab.resample(
                lambda X, y: [0],
                [[1.0], [2.0], [3.0]],
                [0, 1, 0],
                n_runs=3,
                scheme="complementary_pairs",
            ),
            "n_runs",
            ValueError,
        ),
        (lambda: propstab.list_measures("no_such_family"), "family", ValueError),
        (lambda: propstab.selectors.mask_from_output([4], 4), "selector", ValueError),
        (lambda: propstab.selectors.mask_from_output("x", 4), "selector", TypeError),
    ],
)
def test_converted_errors_carry_their_argument(call, argument, kind):
    with pytest.raises(propstab.InvalidParameterError) as caught:
        call()
    assert caught.value.argument == argument
    assert caught.value.kind is kind
    assert str(caught.value).startswith(f"{argument}: ")


def test_fail_takes_an_argument_that_the_message_does_not_start_with():
    with pytest.raises(propstab.InvalidParameterError) as caught:
        fail("--similarity a.csv: its feature names differ", argument="--similarity")
    assert caught.value.argument == "--similarity"
    assert str(caught.value) == "--similarity a.csv: its feature names differ"
