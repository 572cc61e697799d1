"""Figures with 95% intervals from many games, exact whatever the number of processes.

Every figure is a ratio Σx / Σy over games: a game contributes a numerator x and a
denominator y (a seat's win: x = 1 or a share, y = 1; eliminations: x = players out, y =
players; coins: x = coins summed over players, y = players). The sums kept are integers
(win shares are counted in sixtieths, exact for up to 5 sharers), so merging chunks in any
order gives the same figures, bit for bit.

Intervals (docs/simulate.md):
- rates (proportions): Wilson's score interval on the effective number of trials, n / deff,
  where the design effect deff compares the variance between games (players of one game are
  not independent) with the binomial one; deff is never taken below 1;
- means: the ratio estimator's standard error from the spread between games, with Student's t;
- differences (`--compare`, same seeds): the paired difference of the two ratios, linearised
  per game (the delta method), with Student's t.
"""
from __future__ import annotations

import math
from typing import Optional

import attrs

Z95 = 1.959963984540054
SHARE = 60  # win shares are counted in sixtieths: 1/1 … 1/5 of a win are whole numbers

# Student's t, 97.5% quantile, for 1..30 degrees of freedom (beyond: a series in 1/df).
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t975(df: int) -> float:
    """The two-sided 95% quantile of Student's t with `df` degrees of freedom."""
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95  # Cornish-Fisher expansion: good to 1e-4 from 30 on
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (good near 0 and 1, unlike p ± z·se)."""
    if n <= 0:
        return 0.0, 1.0
    p = min(max(successes / n, 0.0), 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@attrs.define
class Sums:
    """Σ and Σ of products of a per-game vector (x, y) or, for a paired run, (x, y, u, v):
    enough for a ratio, its interval, and the paired difference's. Integers only."""

    k: int = 2
    n: int = 0  # games
    s: list[int] = attrs.Factory(list)
    ss: list[int] = attrs.Factory(list)  # upper triangle, row by row

    def __attrs_post_init__(self) -> None:
        if not self.s:
            self.s = [0] * self.k
            self.ss = [0] * (self.k * (self.k + 1) // 2)

    def add(self, vec: tuple[int, ...]) -> None:
        self.n += 1
        s, ss, k = self.s, self.ss, self.k
        i = 0
        for a in range(k):
            va = vec[a]
            s[a] += va
            if va:
                for b in range(a, k):
                    ss[i + b - a] += va * vec[b]
            i += k - a

    def merge(self, other: "Sums") -> None:
        self.n += other.n
        self.s = [a + b for a, b in zip(self.s, other.s, strict=True)]
        self.ss = [a + b for a, b in zip(self.ss, other.ss, strict=True)]

    def prod(self, a: int, b: int) -> int:
        if a > b:
            a, b = b, a
        return self.ss[a * self.k - a * (a - 1) // 2 + (b - a)]

    def part(self, which: int) -> "Sums":
        """The (x, y) sums of one run of a paired tally."""
        a, b = 2 * which, 2 * which + 1
        return Sums(2, self.n, [self.s[a], self.s[b]],
                    [self.prod(a, a), self.prod(a, b), self.prod(b, b)])


@attrs.frozen
class Figure:
    """One figure: its value, 95% interval, and how many trials (rates) or games it rests on."""

    name: str
    kind: str  # "rate" | "mean"
    value: Optional[float]
    low: Optional[float]
    high: Optional[float]
    n: int  # trials (rates: Σy) or observations (means: Σy); games for the interval
    games: int

    @property
    def half_width(self) -> float:
        if self.low is None or self.high is None:
            return math.inf
        return (self.high - self.low) / 2

    def to_json(self) -> dict:
        r = lambda v: None if v is None else round(v, 6)  # noqa: E731
        return {"kind": self.kind, "value": r(self.value), "low": r(self.low),
                "high": r(self.high), "n": self.n}


def _ratio_var(s: Sums, scale: int, a: int = 0, b: int = 1) -> tuple[float, float]:
    """The ratio Σx/Σy and the variance of its estimate, from the spread between games."""
    n, sx, sy = s.n, s.s[a] / scale, s.s[b]
    r = sx / sy
    ybar = sy / n
    # Σ (x_i − r·y_i)²: the residuals' mean is zero by construction of r.
    resid = s.prod(a, a) / scale**2 - 2 * r * s.prod(a, b) / scale + r * r * s.prod(b, b)
    var = max(resid, 0.0) / (n * (n - 1) * ybar * ybar) if n > 1 else math.inf
    return r, var


def figure(name: str, kind: str, s: Sums, scale: int = 1) -> Figure:
    """A figure and its interval from its sums (docs/simulate.md says how)."""
    trials = s.s[1]
    if trials <= 0 or s.n <= 0:
        return Figure(name, kind, None, None, None, 0, s.n)
    r, var = _ratio_var(s, scale)
    if kind == "rate":
        binomial = r * (1 - r) / trials
        deff = var / binomial if binomial > 0 and math.isfinite(var) else 1.0
        # Seats of one game pull against each other (one goes out, so another does not; one
        # greedy bot's win is another's loss): the spread between games is then smaller than
        # the binomial one and deff < 1. Flooring it at 1 made per-player rates' intervals
        # about twice as wide as their spread over repeated runs (issue 24). It may go down to
        # 1/ȳ, ȳ the trials a game holds: n_eff ≤ trials·ȳ keeps a game whose seats happen to
        # split the same way every time from an interval of zero width. At most one trial a
        # game (a seat's win, no winner, a character's): the floor is 1 as before.
        deff = max(deff, min(1.0, s.n / trials))
        low, high = wilson(r * trials / deff, trials / deff)
        return Figure(name, kind, r, low, high, trials, s.n)
    half = t975(s.n - 1) * math.sqrt(var) if math.isfinite(var) else math.inf
    return Figure(name, kind, r, r - half, r + half, trials, s.n)


@attrs.frozen
class Difference:
    """Mod minus base for one figure, played on the same seeds, with its 95% interval."""

    name: str
    value: Optional[float]
    low: Optional[float]
    high: Optional[float]

    @property
    def resolved(self) -> bool:
        """The interval excludes zero: a difference the games show, not noise."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    def to_json(self) -> dict:
        r = lambda v: None if v is None else round(v, 6)  # noqa: E731
        return {"value": r(self.value), "low": r(self.low), "high": r(self.high),
                "resolved": self.resolved}


Known = tuple[float, float, float]  # a figure's value and its 95% interval (low, high)


def known(f: Optional[Figure | Difference]) -> Optional[Known]:
    """A figure's (or a difference's) value and interval, when the games gave them: None when
    it is missing, never arose, or rests on too few games for an interval."""
    if f is None or f.value is None or f.low is None or f.high is None:
        return None
    return f.value, f.low, f.high


def difference(name: str, s: Sums, scale: int = 1) -> Difference:
    """The paired difference of run 1's ratio and run 0's, linearised per game:
    z_i = (u_i − q·v_i)/v̄ − (x_i − r·y_i)/ȳ, whose mean is zero; var(d) ≈ Σz²/(n(n−1))."""
    n = s.n
    if n < 2 or s.s[1] <= 0 or s.s[3] <= 0:
        return Difference(name, None, None, None)
    sc = float(scale)
    r, q = s.s[0] / sc / s.s[1], s.s[2] / sc / s.s[3]
    a, b = n / s.s[1], n / s.s[3]  # 1/ȳ, 1/v̄
    xx, xy, yy = s.prod(0, 0) / sc**2, s.prod(0, 1) / sc, s.prod(1, 1)
    uu, uv, vv = s.prod(2, 2) / sc**2, s.prod(2, 3) / sc, s.prod(3, 3)
    ux, uy = s.prod(0, 2) / sc**2, s.prod(1, 2) / sc
    vx, vy = s.prod(0, 3) / sc, s.prod(1, 3)
    base = xx - 2 * r * xy + r * r * yy
    mod = uu - 2 * q * uv + q * q * vv
    cross = ux - r * uy - q * vx + r * q * vy
    zz = max(b * b * mod + a * a * base - 2 * a * b * cross, 0.0)
    d = q - r
    half = t975(n - 1) * math.sqrt(zz / (n * (n - 1)))
    return Difference(name, d, d - half, d + half)
