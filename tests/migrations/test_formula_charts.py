"""Migration 0018: points charts of kind `formula` (R7): existing charts are kept as they were, a
formula chart needs its formula and a fraction in (0, 1], the kinds are still guarded; undone
(refused while a formula chart exists) and redone."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import IntegrityError

from models.infra.migrate import alembic_config, downgrade, upgrade
from tests.support.migrations import NOW, add_season


def add_chart(conn: Connection, name: str, kind: str, **columns: object) -> int:
    names = ["name", "kind", "created_at", *columns]
    values = {"name": name, "kind": kind, "created_at": NOW, **columns}
    return int(
        conn.execute(
            text(
                f"INSERT INTO points_charts ({', '.join(names)}) VALUES ({', '.join(':' + n for n in names)})"
                " RETURNING id"
            ),
            values,
        ).scalar_one()
    )


def refused(conn: Connection, name: str, kind: str, **columns: object) -> None:
    with pytest.raises(IntegrityError), conn.begin_nested():
        add_chart(conn, name, kind, **columns)


def test_r7_0018_keeps_existing_charts_and_guards_formula_charts(
    empty_url: str, empty_engine: Engine
) -> None:
    config = alembic_config(empty_url)
    upgrade(config, "0017")
    with empty_engine.begin() as conn:
        top = add_chart(conn, "Top", "top_fraction", fraction=0.3, step=10)
        bands = add_chart(conn, "Binder", "bands")
        conn.execute(
            text(
                "INSERT INTO points_chart_bands (chart_id, min_entrants, max_entrants, points)"
                " VALUES (:chart, 2, NULL, '[30, 20, 10]')"
            ),
            {"chart": bands},
        )
        season = add_season(conn, "2026-01-05", "2026-03-01")
        conn.execute(
            text("UPDATE seasons SET points_chart_id = :chart WHERE id = :season"),
            {"chart": bands, "season": season},
        )
    upgrade(config)
    with empty_engine.connect() as conn:
        kept = conn.execute(
            text("SELECT id, name, kind, fraction, step, formula, preset FROM points_charts ORDER BY id")
        ).all()
        assert [(r.id, r.name, r.kind, float(r.fraction) if r.fraction else None, r.step) for r in kept] == [
            (top, "Top", "top_fraction", 0.3, 10),
            (bands, "Binder", "bands", None, None),
        ]
        assert all(r.formula is None and r.preset is None for r in kept)
        assert conn.execute(text("SELECT points_chart_id FROM seasons")).scalar_one() == bands
        assert conn.execute(text("SELECT points FROM points_chart_bands")).scalar_one() in (
            "[30, 20, 10]",
            [30, 20, 10],
        )
        add_chart(
            conn, "Root", "formula", formula="sqrt(n) / sqrt(p) * 100", fraction=0.3, preset="square_root"
        )
        refused(conn, "No text", "formula", fraction=0.3)
        refused(conn, "No fraction", "formula", formula="n - p + 1")
        refused(conn, "Zero", "formula", formula="n - p + 1", fraction=0)
        refused(conn, "Podium", "podium", fraction=0.3, step=10)
        refused(conn, "Top again", "top_fraction", fraction=0.3, step=0)  # the old guard still holds
        conn.commit()
    with pytest.raises(RuntimeError, match="formula chart"):
        downgrade(config, "0017")
    with empty_engine.begin() as conn:
        conn.execute(text("DELETE FROM points_charts WHERE kind = 'formula'"))
    downgrade(config, "0017")
    columns = {column["name"] for column in inspect(empty_engine).get_columns("points_charts")}
    assert not columns & {"formula", "preset"}
    with empty_engine.connect() as conn:
        refused(conn, "Root", "formula", fraction=0.3)
        assert conn.execute(text("SELECT count(*) FROM points_charts")).scalar_one() == 2
    upgrade(config)
    assert {"formula", "preset"} <= {c["name"] for c in inspect(empty_engine).get_columns("points_charts")}
