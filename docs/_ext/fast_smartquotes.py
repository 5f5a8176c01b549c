"""Sphinx extension: docutils' SmartQuotes skips the text it cannot change, the same text.

Sphinx's SmartQuotes transform (``smartquotes_action = "qDe"``: quotes, dashes, ellipses)
hands every block of text to ``docutils.utils.smartquotes.educate_tokens``, which runs
about twenty regular-expression substitutions on each text token (about 66,000 tokens on
this site): about 1 CPU-s of the build. A token changes only where it holds a character or
sequence one of those substitutions matches (:data:`ACTIVE`): a quote or backtick, a
backslash escape, ``--``, ``...`` or ``. . .``, an ``&#`` or ``&quot;`` entity (which the
escapes' restoring step and the ``w`` option read). :func:`educate_tokens` returns every
other token as it is, and gives each token that holds one to docutils' own function, with
the context that function keeps between tokens (the last character of the previous text
token, handed over as a one-character literal token, which is how docutils sets it): the
same text, token for token. The ``-1`` ("stupefy") mode, which changes other characters,
always goes to docutils' function.
"""
from __future__ import annotations

import re

from docutils.utils import smartquotes

#: What any of educate_tokens' substitutions reads (the only places a token can change).
ACTIVE = re.compile(r"""[\\'"`]|--|\.\.\.|\. \. \.|&#|&quot;""")

#: docutils' own function (kept when this module is imported twice).
ORIGINAL = getattr(smartquotes.educate_tokens, "original", smartquotes.educate_tokens)


def educate_tokens(text_tokens, attr=smartquotes.default_smartypants_attr, language="en"):
    """``docutils.utils.smartquotes.educate_tokens``, calling it only for the tokens it can
    change."""
    if attr == "-1":
        yield from ORIGINAL(text_tokens, attr, language)
        return
    previous = " "  # docutils' prev_token_last_char at the start
    for ttype, text in text_tokens:
        if ttype == "tag" or not text:
            yield text
        elif ttype == "literal" or not ACTIVE.search(text):
            previous = text[-1:]
            yield text
        else:
            yield list(ORIGINAL([("literal", previous), (ttype, text)], attr, language))[1]
            previous = text[-1:]


educate_tokens.original = ORIGINAL


def setup(app):
    smartquotes.educate_tokens = educate_tokens
    return {"parallel_read_safe": True, "parallel_write_safe": True}
