"""The terminal edge of the library: the command-line frame every script shares (``console.cli``:
parser, exit codes, one line per error, output targets) and progress displays (``console.progress``:
the ``ProgressFn`` that long library calls report to, and the tqdm bar or lines the scripts draw).
Above the rules engine (``model``: its error family), below everything that reports progress
(``solvers``, ``proofs``, ``conformance``, ``studies``) and the scripts; it never imports them.
``tqdm`` is loaded only when a bar is drawn."""
