"""Tokaido's balance analysis of a results dataset: the tables (``tables``), the report (``report``, with
its caveats ``caveats`` and its Matsuri cell ``matsuri``), plots (``plots``), the effects of a rule change
(``effects``, written out by ``compare``) and the words that describe a dataset (``describe``).
"""
