"""The statistics of a study report (studies/report.py); every interval is 95 %:

- ``wilson``: the Wilson score interval of w wins in n games, p = w / n:
  ``(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)``, z = 1.96; w may be fractional (a game won
  by k tied seats, E4, gives each 1/k);
- ``mean_ci``: ``mean ± q·s/√n`` with the sample standard deviation s (n − 1); q = ``t975(n)``:
  1.96 for n ≥ 30, else the Student t quantile t(0.975, n − 1) from a table (``T975``); no
  interval for n = 1;
- ``exact_mean``, ``share_positive``: the mean and the share of positive values of exact fractions
  (None for no values).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

__all__ = ["T975", "Z", "exact_mean", "mean_ci", "share_positive", "t975", "wilson"]

Z = 1.96  # the normal quantile of a two-sided 95 % interval
# t(0.975, df) for df = 1..28 (samples of 2..29); n >= 30 uses Z
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048)


def wilson(wins: float, n: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` successes (possibly fractional: shared ties) in ``n``
    trials: ``(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)`` with p = wins / n."""
    if n <= 0:
        raise ValueError("wilson: no trials")
    p = wins / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return max(0.0, (centre - half) / denominator), min(1.0, (centre + half) / denominator)


def t975(n: int) -> float:
    """The quantile q of ``mean ± q·s/√n`` for a sample of n ≥ 2: t(0.975, n − 1), or 1.96 for n ≥ 30."""
    if n < 2:
        raise ValueError("t975: a sample of at least 2")
    return Z if n >= 30 else T975[n - 2]


def mean_ci(values: Sequence[float | Fraction]) -> tuple[float, float | None, float | None]:
    """The mean of ``values`` and its 95 % interval ``mean ± t975(n)·s/√n`` (None, None for n = 1)."""
    n = len(values)
    if n == 0:
        raise ValueError("mean_ci: no values")
    mean = sum(Fraction(v) for v in values) / n
    if n == 1:
        return float(mean), None, None
    var = sum((Fraction(v) - mean) ** 2 for v in values) / (n - 1)
    half = t975(n) * math.sqrt(var) / math.sqrt(n)
    return float(mean), float(mean) - half, float(mean) + half


def share_positive(values: Sequence[Fraction]) -> float | None:
    return sum(1 for v in values if v > 0) / len(values) if values else None


def exact_mean(values: Sequence[Fraction]) -> Fraction | None:
    return sum(values, Fraction(0)) / len(values) if values else None

