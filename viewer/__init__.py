"""The HTML viewer: a game record, a solved endgame line or a position as one self-contained page
(``viewer.build``: the page for a source; ``viewer.page``: the page, its packing and the deal
drawing; ``viewer.trade_graph``: a position's trade graph as SVG). Behind scripts/show.py and
``solve_endgame.py --html``. It draws with the rules engine's pictures (drawing/svg.py) and reads the
solvers' positions and trade graph, so it sits beside ``studies`` (docs/architecture.md); it never
imports ``studies``, ``benchmarks`` or the scripts."""
