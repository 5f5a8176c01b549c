"""The registry's formulas are written once, as ``:math:`...``` (typeset on the site);
where the same text reaches a terminal (``propstab audit``'s parameter variants) it is
printed by ``_text.plain_math`` in Unicode, never as raw TeX."""
import re

import pytest

import propstab
from propstab._utils.text import plain_math
from propstab.auditing import VARIANTS


@pytest.mark.parametrize(
    "tex, text",
    [
        (r":math:`E[\hat\Phi \mid H_0]`", "E[Φ̂ | H₀]"),
        (
            r":math:`(\phi - E[\phi \mid H_0]) / (1 - E[\phi \mid H_0])`",
            "(φ - E[φ | H₀]) / (1 - E[φ | H₀])",
        ),
        (r":math:`\frac{2}{M(M-1)}\sum_{i<j} S(i, j)`", "2/(M(M-1))∑_(i<j) S(i, j)"),
        (r":math:`1/\min(k_i, k_j)`", "1/min(kᵢ, kⱼ)"),
        (r":math:`\sqrt{k_i k_j}`", "√(kᵢ kⱼ)"),
        (r":math:`\binom{d}{k_i}`", "C(d, kᵢ)"),
        (r":math:`-(n^2 + 1)/(2n)`", "-(n² + 1)/(2n)"),
        (r":math:`\bar k^2`", "k̄²"),
        (r":math:`s_f^2`", "s_f²"),  # no subscript f in Unicode: s_f
        (r":math:`\mathrm{var}_{pop}(k/d)`", "var_pop(k/d)"),
        (r":math:`\partial\phi / \partial r_{ij} > 0`", "∂φ / ∂rᵢⱼ > 0"),
        (r":math:`c_{01} = 1`", "c₀₁ = 1"),
        ("no formula, [{0}, {1}] kept", "no formula, [{0}, {1}] kept"),
    ],
)
def test_plain_math_writes_tex_in_unicode(tex, text):
    assert plain_math(tex) == text
    assert plain_math("before " + tex + " after") == "before " + text + " after"


def _registry_texts():
    for m in propstab.list_measures():
        yield m.name, "notes", m.notes
        for p in m.parameters:
            yield m.name, f"option {p.name}", p.description
        for ref in m.r_references:
            if ref.note:
                yield m.name, f"R note {ref}", ref.note
    for name, variants in VARIANTS.items():
        for v in variants:
            yield name, f"variant {v.options}", v.reason


def test_every_registry_formula_reads_as_unicode():
    texts = list(_registry_texts())
    assert sum(":math:" in text for _, _, text in texts) >= 30  # the notes use it
    for name, where, text in texts:
        plain = plain_math(text)
        assert ":math:" not in plain and "\\" not in plain, (name, where, plain)
        assert not re.search(r"_\{|\^\{", plain), (name, where, plain)


def test_audit_prints_the_variants_reasons_without_tex():
    table = propstab.audit("jaccard", max_examples=2, random_state=0)
    text = str(table)
    assert "Parameter variants" in text
    assert "each pair's score φ becomes (φ - E[φ | H₀]) / (1 - E[φ | H₀])" in text
    assert "\\" not in text and ":math:" not in text
