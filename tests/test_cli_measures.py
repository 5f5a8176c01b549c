"""``propstab measures``: every registered measure is listed with its claims."""
import json
import re

import pytest

from propstab import Axiom, list_measures
from propstab.cli import main

MEASURES = list_measures()


def run(capsys, *argv):
    assert main(["measures", *argv]) == 0
    out = capsys.readouterr().out
    assert out.strip()
    return out


def test_table_lists_every_measure_with_its_claims(capsys):
    out = run(capsys)
    lines = out.splitlines()
    heads = re.split(r"\s{2,}", lines[0].strip())
    marks_at = heads.index("family") + 1
    assert heads[marks_at : marks_at + 5] == [a.label[:5] for a in Axiom]
    rows = {}
    for line in lines[2:]:
        fields = re.split(r"\s{2,}", line.strip())
        if len(fields) >= marks_at + 5 and fields[1] in (
            "pairwise",
            "frequency",
            "correlated",
            "ranking",
        ):
            rows[fields[0].split(" (")[0]] = fields
    assert sorted(rows) == sorted(m.name for m in MEASURES)
    for m in MEASURES:
        fields = rows[m.name]
        if m.aliases:
            assert fields[0] == f"{m.name} ({', '.join(m.aliases)})"
        assert fields[1] == m.family
        assert fields[marks_at : marks_at + 5] == ["✓" if m.claims[a] else "·" for a in Axiom]
        assert fields[marks_at + 5] == f"[{m.bounds[0]}, {m.bounds[1]}]"
        assert fields[marks_at + 6] == m.orientation
        assert fields[-1] == (str(m.r_reference) if m.r_reference else "-")


def test_json_lists_every_measure_with_its_claims(capsys):
    rows = json.loads(run(capsys, "--json"))
    assert [r["name"] for r in rows] == [m.name for m in MEASURES]
    for r, m in zip(rows, MEASURES):
        assert r["claims"] == {a.name.lower(): m.claims[a] for a in Axiom}
        assert r["bounds"] == [str(m.bounds[0]), str(m.bounds[1])]
        assert r["aliases"] == list(m.aliases)
        assert r["family"] == m.family and r["orientation"] == m.orientation
        assert r["domain"] == m.domain and r["null_value"] == m.null_value
        assert r["parameters"] == list(m.parameter_names)
        assert r["r_reference"] == (str(m.r_reference) if m.r_reference else None)


@pytest.mark.parametrize("family", sorted({m.family for m in MEASURES}))
def test_family_filter(capsys, family):
    rows = json.loads(run(capsys, "--json", "--family", family))
    assert [r["name"] for r in rows] == [m.name for m in list_measures(family=family)]
    assert rows and all(r["family"] == family for r in rows)
