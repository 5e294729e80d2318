"""Formula charts (R7) the tests share: the probe's hostile chart of issue 44 (30 terms, each a
fractional power of n / p, which took minutes to save before the check was bounded) and what a
normal league writes (bench/formula_charts.py times the same shapes)."""

HOSTILE = "+".join(f"(n/p)^0.{31 + term}" for term in range(30))

# What a normal league writes: the bonus of docs/setting-up-a-league.md, and formulas of the usual
# pieces (a bonus table for the top places, the presets' shapes, the scoring places, a field-size
# bonus) of about 350 and 500 characters (bench/formula_charts.py times them).
README = "if(p == 1, 20, 0) + 10 * (k - p + 1)"
ORDINARY_350 = (
    "if(p == 1, 50, if(p == 2, 30, if(p == 3, 20, if(p <= 5, 10, 0)))) + sqrt(n) / sqrt(p) * 40"
    " + (ln(n + 1) - ln(p)) * 25 + 100 * (k - p + 1) / k + log10(n + 1) * 15 / sqrt(p)"
    " + max(0, (n - 10) / 5) * (k - p + 1) / k + if(n >= 50, 20, if(n >= 25, 10, 0)) * (1 - (p - 1) / k)"
    " + floor(sqrt(n) * 10 / p) + round((n - p + 1) / n * 30) + min(50, 2 * (k - p + 1))"
)
ORDINARY_500 = (
    "if(p == 1, 50, 0) + if(p == 2, 30, 0) + if(p == 3, 20, 0) + if(p <= 3 and n >= 20, 10, 0)"
    " + round(sqrt(n) / sqrt(p) * 100) + 10 * (k - p + 1)"
    " + if(n >= 30, 25, if(n >= 20, 15, if(n >= 10, 5, 0))) * if(p == 1, 1, 0)"
    " + max(0, 20 - 2 * p) + floor(ln(n + 1) * 10 / p) + if(p <= k / 2, 15, 5)"
    " + min(100, n) / 10 + ceil((k - p + 1) / k * 40) + log10(n) * 10 + (ln(n + 1) - ln(p)) * 20"
    " + if(p == 1 and n >= 40, 40, 0) + 5 * max(0, 10 - p) + sqrt(k - p + 1) * 3"
    " + if(n >= 60, 12, 0) * (k - p + 1) / k"
)
