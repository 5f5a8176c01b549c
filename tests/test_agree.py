"""propstab.testing.assert_agrees and propstab agree: three kinds of planted bug (a 0/0
returned as 0, an off-by-one in 1-based sets, a wrong sign in the chance correction) in
short implementations in Python, in R functions (rpy2) and behind commands in R and Perl;
each is caught, shrunk to at most 3 runs and 4 features, and the printed code reproduces
it. The correct implementations pass; the protocol's failures are one quoted line."""
import contextlib
import io
import json
import math
import pathlib
import re
import shlex
import shutil
import sys
import time
import warnings

import numpy as np
import pytest

import shared  # tests/shared.py: processes under a timeout

import propstab
from propstab.cli import main
from propstab.testing import (
    Agreement,
    DisagreementError,
    ProtocolError,
    agreement,
    assert_agrees,
    command,
)

ROOT = pathlib.Path(__file__).resolve().parents[1]
ADAPTERS = ROOT / "docs" / "adapters"


# ---------------------------------------------------------------------- Python


def _nogueira(Z, undefined):
    Z = np.asarray(Z, dtype=float)
    M, d = Z.shape
    k = Z.sum() / M / d
    if k in (0, 1):
        return undefined
    return 1 - Z.var(axis=0, ddof=1).mean() / (k * (1 - k))


def nogueira(Z):
    return _nogueira(Z, None)


def nogueira_zero(Z):  # bug: 0/0 returned as 0
    return _nogueira(Z, 0.0)


def nogueira_sets(sets, d):
    Z = np.zeros((len(sets), d))
    for i, s in enumerate(sets):
        Z[i, np.asarray(s, dtype=int) - 1] = 1
    return nogueira(Z)


def nogueira_sets_shifted(sets, d):  # bug: 1-based indices read as 0-based
    Z = np.zeros((len(sets), d + 1))
    for i, s in enumerate(sets):
        Z[i, s] = 1
    return nogueira(Z[:, :d])


def _kuncheva(Z, sign):
    Z = np.asarray(Z, dtype=float)
    M, d = Z.shape
    k = Z[0].sum()
    if k in (0, d):
        return None
    r = Z @ Z.T
    i, j = np.triu_indices(M, 1)
    return float(np.mean((r[i, j] + sign * k * k / d) / (k - k * k / d)))


def kuncheva(Z):
    return _kuncheva(Z, -1)


def kuncheva_sign(Z):  # bug: + instead of - in the chance correction
    return _kuncheva(Z, +1)


#: (the bug, its measure, the input form and base, the buggy and the correct function)
PYTHON_BUGS = {
    "zero_over_zero": ("nogueira", "matrix", 0, nogueira_zero, nogueira),
    "one_based_sets": ("nogueira", "sets", 1, nogueira_sets_shifted, nogueira_sets),
    "chance_sign": ("kuncheva", "matrix", 0, kuncheva_sign, kuncheva),
}


def small_shrunk(result: Agreement) -> None:
    assert not result.agrees
    M, d = result.counterexample.Z.shape
    assert M <= 3 and d <= 4, result.counterexample.Z


def printed_values(code: str):
    """Run the reproducing Python line; the two values it prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore", propstab.UndefinedMeasureWarning)
        exec(code, dict(globals()))
    return [math.nan if v == "None" else float(v) for v in out.getvalue().split()]


@pytest.mark.parametrize("bug", sorted(PYTHON_BUGS))
def test_python_bug_caught_shrunk_and_reproduced(bug):
    measure, form, base, buggy, _ = PYTHON_BUGS[bug]
    with pytest.raises(DisagreementError) as info:
        assert_agrees(buggy, measure, input=form, base=base)
    result = info.value.agreement
    small_shrunk(result)
    message = str(info.value)
    assert "shrunk counterexample" in message and result.code in message
    c = result.counterexample
    values = printed_values(result.code)  # f(...) and propstab's measure on the case
    expected = [c.candidate.value, c.reference.value]  # NaN where undefined
    assert len(values) == 2
    assert all((math.isnan(a) and math.isnan(b)) or a == b for a, b in zip(values, expected))


def test_shrunk_zero_over_zero_case_is_the_two_empty_runs():
    result = agreement(nogueira_zero, "nogueira")
    assert result.counterexample.Z.astype(int).tolist() == [[0], [0]]
    assert result.counterexample.reference.state == "undefined"
    assert result.counterexample.candidate.value == 0.0
    agrees, counterexample = result  # unpacks
    assert agrees is False and counterexample is result.counterexample
    assert "DISAGREES" in str(result) and "Z = [[0]," in str(result)


@pytest.mark.parametrize("bug", sorted(PYTHON_BUGS))
def test_correct_python_implementations_agree(bug):
    measure, form, base, _, correct = PYTHON_BUGS[bug]
    result = assert_agrees(correct, measure, input=form, base=base)
    assert result.agrees and result.n_examples == 200
    assert 0 < result.n_undefined < result.n_examples  # undefined cases were drawn
    assert result.largest_difference < 1e-12


def test_a_correct_implementation_passes_1000_examples_quickly():
    start = time.process_time()
    result = assert_agrees(nogueira, "nogueira", max_examples=1000)
    seconds = time.process_time() - start  # CPU: the machine's load does not count
    assert result.n_examples == 1000 and result.agrees
    assert seconds < 20, seconds  # 1.6 s of CPU on the 2-core development machine


def test_frequencies_input():
    def from_counts(F, M):
        d = len(F)
        k = F.sum() / M / d
        if k in (0, 1):
            return math.nan
        p = F / M
        return 1 - (M / (M - 1) * p * (1 - p)).mean() / (k * (1 - k))

    assert assert_agrees(from_counts, "nogueira", input="frequencies").agrees
    with pytest.raises(propstab.InvalidParameterError, match="frequency family"):
        agreement(from_counts, "jaccard", input="frequencies")


def test_expected_differences_are_counted_not_failed():
    def differs_when_empty_or_full(Z, options):
        return Z.all() or not Z.any()

    result = assert_agrees(
        nogueira_zero, "nogueira", expected_differences=differs_when_empty_or_full
    )
    assert result.agrees and result.n_expected > 0


def test_options_go_to_both_sides():
    def davis(Z, penalty):
        return propstab.get_measure("davis")(np.asarray(Z, dtype=bool), penalty=penalty)

    assert assert_agrees(davis, "davis", options={"penalty": 0.5}, max_examples=50).agrees
    with pytest.raises(propstab.InvalidParameterError, match="penalty"):
        agreement(davis, "davis", options={"penalty": -1})


def test_errors_agree_only_with_invalid_input():
    from propstab.testing._agree import Side, compare

    invalid, error = Side("invalid", message="bad"), Side("error", message="boom")
    assert compare(invalid, error, 0, 0)[0]
    assert not compare(invalid, Side("value", 0.5), 0, 0)[0]
    assert not compare(Side("value", 0.5), error, 0, 0)[0]
    assert not compare(Side("undefined"), Side("value", 0.0), 0, 0)[0]
    assert not compare(Side("value", 0.0), Side("undefined"), 0, 0)[0]
    assert compare(Side("undefined"), Side("undefined"), 0, 0)[0]


def test_an_implementation_raising_is_a_disagreement():
    def fails_on_one_feature(Z):
        if Z.shape[1] == 1:
            raise ZeroDivisionError("no pairs")
        return nogueira(Z)

    result = agreement(fails_on_one_feature, "nogueira")
    assert result.counterexample.candidate.state == "error"
    assert "ZeroDivisionError" in str(result)


# ---------------------------------------------------------------------- R functions

R_FUNCTIONS = """
nogueira <- function(Z) {
  k <- mean(rowSums(Z)) / ncol(Z)
  if (k == 0 || k == 1) return(NA)
  1 - mean(apply(Z, 2, var)) / (k * (1 - k))
}
nogueira_zero <- function(Z) {
  k <- mean(rowSums(Z)) / ncol(Z)
  if (k == 0 || k == 1) return(0)
  1 - mean(apply(Z, 2, var)) / (k * (1 - k))
}
nogueira_sets <- function(sets, p) {
  Z <- matrix(0, length(sets), p)
  for (i in seq_along(sets)) Z[i, sets[[i]]] <- 1
  nogueira(Z)
}
nogueira_sets_shifted <- function(sets, p) {
  Z <- matrix(0, length(sets), p)
  for (i in seq_along(sets)) Z[i, sets[[i]] - 1] <- 1
  nogueira(Z)
}
kuncheva_with <- function(Z, sign) {
  M <- nrow(Z); d <- ncol(Z); k <- sum(Z[1, ])
  if (k == 0 || k == d) return(NA)
  r <- tcrossprod(Z)
  mean((r[upper.tri(r)] + sign * k^2 / d) / (k - k^2 / d))
}
kuncheva <- function(Z) kuncheva_with(Z, -1)
kuncheva_sign <- function(Z) kuncheva_with(Z, +1)
"""

R_BUGS = {
    "zero_over_zero": ("nogueira", "matrix", 1, "nogueira_zero", "nogueira"),
    "one_based_sets": ("nogueira", "sets", 1, "nogueira_sets_shifted", "nogueira_sets"),
    "chance_sign": ("kuncheva", "matrix", 1, "kuncheva_sign", "kuncheva"),
}


@pytest.fixture(scope="module")
def r():
    robjects = pytest.importorskip("rpy2.robjects")
    robjects.r(R_FUNCTIONS)
    return robjects.r


@pytest.mark.parametrize("bug", sorted(R_BUGS))
def test_r_function_bug_caught_with_r_code(r, bug):
    measure, form, base, buggy, correct = R_BUGS[bug]
    with pytest.raises(DisagreementError) as info:
        assert_agrees(r[buggy], measure, input=form, base=base, name=buggy)
    result = info.value.agreement
    small_shrunk(result)
    assert result.language == "R" and result.code.startswith(f"{buggy}(")
    call = result.code.split("  # propstab: ")
    got = float(r(f"as.numeric({call[0]})")[0])  # the printed R code: the candidate's value
    c = result.counterexample
    assert (c.candidate.state == "undefined" and math.isnan(got)) or got == c.candidate.value
    assert "propstab::stability(list(" in call[1]
    assert assert_agrees(r[correct], measure, input=form, base=base).agrees


# ---------------------------------------------------------------------- commands

R_SCRIPT = (
    R_FUNCTIONS
    + """
mode <- commandArgs(trailingOnly = TRUE)[1]
con <- file("stdin", "r")
while (length(line <- readLines(con, n = 1L)) > 0L) {
  req <- jsonlite::fromJSON(line, simplifyVector = FALSE)
  rows <- function(x) do.call(rbind, lapply(x, function(r) as.numeric(unlist(r))))
  sets <- lapply(req$sets, function(s) as.integer(unlist(s)))
  out <- tryCatch(if (!is.null(req$sets)) get(mode)(sets, req$n_features)
                  else get(mode)(rows(req$Z)),
                  error = function(e) list(error = conditionMessage(e)))
  cat(if (is.list(out)) jsonlite::toJSON(out, auto_unbox = TRUE) else if (is.na(out)) "null"
      else sprintf("%.17g", out), "\\n", sep = "")
  flush(stdout())
}
"""
)

PERL_SCRIPT = r"""
use strict; use warnings; use JSON::PP; $| = 1;
my $mode = shift @ARGV;
sub nogueira_with {
    my ($Z, $undefined) = @_; my ($M, $d) = (scalar @$Z, scalar @{$Z->[0]}); my ($k, $s) = (0, 0);
    $k += $_ for map { @$_ } @$Z; $k /= $M * $d;
    return $undefined if $k == 0 || $k == 1;
    for my $f (0 .. $d - 1) {
        my $p = 0; $p += $_->[$f] for @$Z; $p /= $M; $s += $p * (1 - $p) * $M / ($M - 1)
    }
    return 1 - $s / $d / ($k * (1 - $k));
}
sub from_sets {
    my ($sets, $d, $shift) = @_;
    my @Z = map { my @r = (0) x $d; my $s = $_;
                  for my $f (@$s) { my $j = $f - $shift; $r[$j] = 1 if $j < $d } \@r } @$sets;
    return \@Z;
}
sub kuncheva_with {
    my ($Z, $sign) = @_; my ($M, $d) = (scalar @$Z, scalar @{$Z->[0]});
    my $k = 0; $k += $_ for @{$Z->[0]};
    return undef if $k == 0 || $k == $d;
    my ($sum, $n) = (0, 0);
    for my $i (0 .. $M - 2) { for my $j ($i + 1 .. $M - 1) {
        my $r = 0; $r += $Z->[$i][$_] * $Z->[$j][$_] for 0 .. $d - 1;
        $sum += ($r + $sign * $k * $k / $d) / ($k - $k * $k / $d); $n++ } }
    return $sum / $n;
}
my %modes = (
    nogueira => sub { nogueira_with($_[0]{Z}, undef) },
    nogueira_zero => sub { nogueira_with($_[0]{Z}, 0) },
    nogueira_sets => sub { nogueira_with(from_sets($_[0]{sets}, $_[0]{n_features}, 1), undef) },
    nogueira_sets_shifted => sub {
        nogueira_with(from_sets($_[0]{sets}, $_[0]{n_features}, 0), undef) },
    kuncheva => sub { kuncheva_with($_[0]{Z}, -1) },
    kuncheva_sign => sub { kuncheva_with($_[0]{Z}, 1) },
);
while (my $line = <STDIN>) {
    my $req = decode_json($line); my $out = eval { $modes{$mode}->($req) };
    print $@ ? encode_json({ error => "$@" })
        : defined $out ? sprintf("%.17g", $out) : "null", "\n";
}
"""

LANGUAGES = {"R": ("Rscript", R_SCRIPT, ".R"), "perl": ("perl", PERL_SCRIPT, ".pl")}


@pytest.fixture(scope="module")
def scripts(tmp_path_factory):
    folder = tmp_path_factory.mktemp("adapters")
    out = {}
    for language, (program, text, suffix) in LANGUAGES.items():
        if shutil.which(program) is None:
            continue
        path = folder / f"measure{suffix}"
        path.write_text(text)
        out[language] = [program, str(path)]
    return out


def _argv(scripts, language, mode):
    if language not in scripts:
        pytest.skip(f"{LANGUAGES[language][0]} is not installed")
    return scripts[language] + [mode]


def run_cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("bug", sorted(R_BUGS))
def test_command_bug_caught_by_assert_agrees_and_propstab_agree(scripts, language, bug):
    measure, form, base, buggy, correct = R_BUGS[bug]
    argv = _argv(scripts, language, buggy)
    with command(argv, timeout=30) as cmd:
        with pytest.raises(DisagreementError) as info:
            assert_agrees(cmd, measure, input=form, base=base)
    result = info.value.agreement
    small_shrunk(result)
    # the printed shell line reproduces the candidate's answer
    line = result.code.split(" | ")[0]
    request = json.loads(line[len("echo ") :].strip("'"))
    answer = shared.run(
        argv, input=json.dumps(request) + "\n", capture_output=True, text=True, timeout=60
    ).stdout.strip()
    c = result.counterexample
    assert (answer == "null" and c.candidate.state == "undefined") or (
        c.candidate.state == "value" and float(answer) == c.candidate.value
    )
    # the same through the command line: exit 1 and the shrunk case printed
    extra = ["--input", form] + (["--one-based"] if form == "sets" else [])
    status, out, _ = run_cli(["agree", "--measure", measure, *extra, "--", *argv])
    assert status == 1, out
    assert "shrunk counterexample" in out and "reproduce (command)" in out
    shape = re.search(r"shrunk counterexample: (\d+) runs, (\d+) feature", out)
    assert int(shape.group(1)) <= 3 and int(shape.group(2)) <= 4
    # and the correct implementation agrees
    status, out, _ = run_cli(
        ["agree", "--measure", measure, *extra, "--", *_argv(scripts, language, correct)]
    )
    assert status == 0 and "agrees" in out


@pytest.mark.parametrize(
    "script,program", [("nogueira.R", "Rscript"), ("nogueira.pl", "perl"), ("nogueira.jq", "jq")]
)
def test_the_documented_adapters_agree(script, program):
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    argv = [program, "-c", "--unbuffered", "-f"] if program == "jq" else [program]
    argv.append(str(ADAPTERS / script))
    with command(argv) as cmd:
        result = assert_agrees(cmd, "nogueira")
    assert result.n_examples == 200 and cmd.requests == 200
    # the planted 0/0 bug in the template is caught
    text = (ADAPTERS / script).read_text()
    planted = {
        "nogueira.R": ("return(NA)", "return(0)"),
        "nogueira.pl": ("return undef", "return 0"),
        "nogueira.jq": ("then null", "then 0"),
    }[script]
    assert planted[0] in text


def test_propstab_agree_in_a_subprocess_exits_1_with_the_case():
    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not installed")
    script = ADAPTERS / "nogueira.R"
    buggy = script.read_text().replace("return(NA)", "return(0)")
    env_path = str(ROOT)
    proc = shared.run(
        [
            sys.executable,
            "-m",
            "propstab",
            "agree",
            "--measure",
            "nogueira",
            "--max-examples",
            "50",
            "--",
            "Rscript",
            "-e",
            buggy,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 1, proc.stderr
    assert "Z = [[0]," in proc.stdout and 'echo \'{"Z": [[0], [0]]' in proc.stdout


# ---------------------------------------------------------------------- the protocol


def python_command(body: str):
    return [sys.executable, "-c", "import sys, json\nfor line in sys.stdin:\n" + body]


def test_a_line_off_the_protocol_is_quoted_exit_2():
    argv = python_command("    print('[1] 0.5', flush=True)\n")
    with pytest.raises(ProtocolError, match=r"not a JSON answer.*'\[1\] 0.5'"):
        assert_agrees(command(argv), "nogueira")
    status, out, err = run_cli(["agree", "--measure", "nogueira", "--", *argv])
    assert status == 2 and "'[1] 0.5'" in err and len(err.strip().splitlines()) == 1
    assert err.startswith("propstab agree: error: command ")


def test_a_command_that_exits_or_hangs():
    exits = python_command("    sys.stderr.write('my error\\n'); sys.exit(3)\n")
    with pytest.raises(ProtocolError, match="exited.*status 3.*my error"):
        command(exits)([[1, 0], [0, 1]])
    hangs = python_command("    import time; time.sleep(60)\n")
    cmd = command(hangs, timeout=0.5)
    start = time.perf_counter()
    with pytest.raises(ProtocolError, match="no answer within 0.5 s"):
        cmd([[1, 0], [0, 1]])
    assert time.perf_counter() - start < 5
    assert cmd._process is None  # killed
    with pytest.raises(ProtocolError):  # and stays broken
        cmd([[1, 0], [0, 1]])
    status, _, err = run_cli(["agree", "--measure", "nogueira", "--timeout", "0.5", "--", *hangs])
    assert status == 2 and "no answer within 0.5 s" in err


def test_one_process_serves_every_example_and_is_ended():
    argv = python_command("    import os; print(os.getpid(), flush=True)\n")
    with command(argv) as cmd:
        pids = {cmd([[1, 0], [0, 1]]) for _ in range(5)}
        process = cmd._process
    assert len(pids) == 1 and process.poll() is not None


def test_error_answers_and_bad_arguments():
    argv = python_command("    print(json.dumps({'error': 'p must be > 1'}), flush=True)\n")
    result = agreement(command(argv), "nogueira")
    assert result.counterexample.candidate.state == "error"
    assert "p must be > 1" in str(result)
    for bad, match in [
        (dict(command=""), "must not be empty"),
        (dict(command="x", timeout=0), "timeout"),
        (dict(command="x", input="list"), "input"),
        (dict(command=3), "command"),
    ]:
        with pytest.raises(propstab.InvalidParameterError, match=match):
            command(**bad)
    status, _, err = run_cli(["agree", "--measure", "nogueira"])
    assert status == 2 and "--command" in err
    status, _, err = run_cli(["agree", "--measure", "nogueira", "--", "/no/such/program"])
    assert status == 2 and "cannot start" in err


# ---------------------------------------------------------------------- the audit


def test_audit_of_a_command_through_the_same_door():
    argv = [
        shutil.which("perl") or pytest.skip("perl is not installed"),
        str(ADAPTERS / "nogueira.pl"),
    ]
    with command(argv, like="nogueira") as cmd:
        table = propstab.audit(cmd, max_examples=30)
    assert not table.disagreements and cmd.requests > 30
    status, out, _ = run_cli(
        ["audit", "--command", " ".join(argv), "--measure", "nogueira", "--max-examples", "30"]
    )
    assert status == 0 and "nogueira.pl" in out
    buggy = python_command("    print(1.5, flush=True)\n")  # above nogueira's bound 1
    status, out, _ = run_cli(
        ["audit", "--command", shlex.join(buggy), "--measure", "nogueira", "--max-examples", "30"]
    )
    assert status == 1 and "declared maximum 1" in out
    status, _, err = run_cli(
        ["audit", "--command", "perl -e 'print 1'", "--measure", "nogueira", "--timeout", "2"]
    )
    assert status == 2 and "exited" in err


# ---------------------------------------------------------------------- invalid inputs


def nogueira_sets_checked(sets, d):
    if any(not 1 <= f <= d for s in sets for f in s):
        raise ValueError(f"an index outside 1..{d}")
    return nogueira_sets(sets, d)


def nogueira_sets_grown(sets, d):  # stabm's defect: p grows to the largest index
    return nogueira_sets(sets, max([d] + [f for s in sets for f in s]))


def test_invalid_inputs_must_be_refused():
    assert assert_agrees(
        nogueira_sets_checked, "nogueira", input="sets", base=1, invalid_inputs=True
    ).agrees
    result = agreement(nogueira_sets_grown, "nogueira", input="sets", base=1, invalid_inputs=True)
    c = result.counterexample
    assert c.flawed and c.reference.state == "invalid" and c.candidate.state == "value"
    small_shrunk(result)
    assert "made invalid: the first run also selects" in str(result)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(propstab.InvalidParameterError):
        exec(result.code, dict(globals()))  # propstab refuses the printed input
    # without invalid inputs the same implementation agrees (it is right on valid ones)
    assert assert_agrees(nogueira_sets_grown, "nogueira", input="sets", base=1).agrees
    matrix = agreement(nogueira, "nogueira", invalid_inputs=True)  # computes on a 2
    assert matrix.counterexample.flawed and "Z[0, 0] = 2" in str(matrix)
    with pytest.raises(propstab.InvalidParameterError, match="invalid_inputs"):
        agreement(nogueira, "nogueira", input="frequencies", invalid_inputs=True)


def test_invalid_inputs_through_a_command(scripts):
    argv = _argv(scripts, "perl", "nogueira_sets")
    status, out, _ = run_cli(
        [
            "agree",
            "--measure",
            "nogueira",
            "--input",
            "sets",
            "--one-based",
            "--invalid-inputs",
            "--",
            *argv,
        ]
    )
    assert status == 1 and "made invalid" in out and "propstab (nogueira): invalid input" in out


def test_declared_expected_differences_by_key():
    """A stand-in for stabm's novovicova (exact correction): propstab's value except NaN
    where the declared difference 'corrected_global_score' applies (R's M = 3 cases)."""
    from propstab.r import EXPECTED_DIFFERENCES
    from propstab._data.convert_selection import as_selection

    difference = next(e for e in EXPECTED_DIFFERENCES if e.key == "corrected_global_score")
    info = propstab.get_measure("novovicova")
    options = {"correction_for_chance": "exact"}

    def like_stabm(Z, **o):
        Z = np.asarray(Z, dtype=bool)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if info.r_reference.differences and any(
                e.applies is not None and e.applies("novovicova", as_selection(Z), o)
                for e in info.r_reference.differences
                if e.key == difference.key
            ):
                return math.nan
            return info(Z, **o)

    with pytest.raises(DisagreementError):
        assert_agrees(like_stabm, "novovicova", options=options, max_examples=100)
    result = assert_agrees(
        like_stabm,
        "novovicova",
        options=options,
        max_examples=100,
        expected_differences=["corrected_global_score"],
    )
    assert result.n_expected > 0
    with pytest.raises(propstab.InvalidParameterError, match="not a declared difference"):
        agreement(like_stabm, "novovicova", expected_differences=["no_such_key"])


def test_a_ranking_measure_is_checked_on_rank_matrices():
    from scipy import stats

    def spearman(R):  # mean over pairs of runs of scipy's rho
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a constant run: scipy's NaN, undefined
            rhos = [
                stats.spearmanr(R[i], R[j])[0] for i in range(len(R)) for j in range(i + 1, len(R))
            ]
        return float(np.mean(rhos))

    result = assert_agrees(spearman, "spearman", max_examples=100)
    assert result.n_undefined > 0  # runs ranking every feature equal
    with pytest.raises(DisagreementError):
        assert_agrees(lambda R: spearman(R) * 0.99, "spearman", max_examples=100)
    with pytest.raises(propstab.InvalidParameterError, match="rank matrix"):
        agreement(spearman, "spearman", input="sets")
