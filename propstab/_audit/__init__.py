"""The axiom audit's machinery (private); :mod:`propstab.auditing` is its public face.

=================  ===================================================================
module             contents
=================  ===================================================================
``subjects``       :class:`Subject` (a measure, its options and the registry's
                   :class:`~propstab.registry.Declaration`), :class:`Context` (the
                   similarity/importances drawn for correlated measures),
                   ``subject()``, the registered variants (``VARIANTS``) and
                   ``search_in_contexts`` (the search of :mod:`propstab.search` with
                   a context drawn per example)
``expectations``   exact null expectations: hypergeometric per pair, enumeration
``rankings``       the same for rank matrices: exact total variance of midranks, null
                   expectations over arrangements of midranks, families and examples
``inputs``         :class:`InputKind`: what each check draws and computes for a
                   subject's input kind (``Declaration.input``: selection or ranking)
``examples``       constructive families (unbounded values) and the explicit example
                   matrices tried before a search
``checks``         the five ``check_<axiom>`` functions and ``CHECKS``
``report``         :class:`CheckResult`, :class:`AuditTable` and its printed form
``loader``         ``load_function("file.py:function")``
=================  ===================================================================

Imports go one way: ``expectations`` <- ``subjects`` <- ``examples``, ``rankings`` <-
``inputs``, ``report`` <- ``checks``; ``loader`` stands alone.
"""
