"""player_ratings and rating_points: skill ratings (R20), derived from the results

- player_ratings: each rated player's mu and sigma now (double precision: the floats openskill
  returns, stored exactly), rated tournaments, and the last rated report's place in the order.
- rating_points: a player's mu and sigma after each rated report, with the report's date,
  session, venue, the player's place and the rated entrants; indexed by the order (date,
  session, report id) so a replay cuts the history at any point.
- tournaments gets an index on (date, session, id): the reports from a point of the order on.

Both tables are filled from the results already stored (the same computation as
`flask --app app ratings rebuild`). League data: both get the data-version triggers of 0008.

Revision ID: 0019
Revises: 0017
Create Date: 2026-12-05 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from openskill.models import PlackettLuce

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("player_ratings", "rating_points")
BUMP = "UPDATE data_version SET version = version + 1 WHERE id = 1"


def upgrade() -> None:
    op.create_table(
        "player_ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("tournaments", sa.Integer(), nullable=False),
        sa.Column("last_tournament_id", sa.Integer(), nullable=False),
        sa.Column("last_date", sa.Date(), nullable=False),
        sa.Column("last_session", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_player_ratings_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_player_ratings")),
    )
    op.create_table(
        "rating_points",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("session", sa.Integer(), nullable=False),
        sa.Column("venue_id", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("entrants", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("tournaments", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_rating_points_player_id_players"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_rating_points_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["venue_id"], ["venues.id"], name=op.f("fk_rating_points_venue_id_venues"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name=op.f("pk_rating_points")),
    )
    op.create_index(
        "ix_rating_points_order", "rating_points", ["date", "session", "tournament_id"], unique=False
    )
    op.create_index(op.f("ix_rating_points_player_id"), "rating_points", ["player_id"], unique=False)
    op.create_index("ix_tournaments_rating_order", "tournaments", ["date", "session", "id"], unique=False)
    # League data like any other table: its changes move the data version on (migration 0008).
    for table in TABLES:
        if op.get_bind().dialect.name == "postgresql":
            op.execute(
                f"CREATE TRIGGER data_version_{table} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE "
                f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()"
            )
        else:
            for event in ("INSERT", "UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER data_version_{table}_{event.lower()} AFTER {event} ON {table} "
                    f"BEGIN {BUMP}; END"
                )
    _fill()


def _fill() -> None:
    """The ratings of the results already stored, by this migration's own copy of the replay (a
    migration must not depend on models that later revisions change): every live report in order
    of date, session and id, its entrants but no-shows ranked by place by openskill's
    Plackett-Luce with its defaults; a report with fewer than two rated entrants changes nothing.
    The same inputs in the same order as models/services/ratings.py: the same floats."""
    bind = op.get_bind()
    model = PlackettLuce()
    rows = bind.execute(
        sa.text(
            "SELECT t.id, t.date, t.session, t.venue_id, r.player_id, r.place FROM tournaments t"
            " JOIN results r ON r.tournament_id = t.id WHERE t.voided_at IS NULL"
            " AND r.status != 'no_show' ORDER BY t.date, t.session, t.id, r.place"
        )
    ).all()
    reports: dict[int, list[tuple[object, ...]]] = {}
    for row in rows:
        reports.setdefault(row[0], []).append(tuple(row))
    state: dict[int, tuple[float, float, int, int, object, int]] = {}
    points = []
    for entrants in reports.values():
        if len(entrants) < 2:
            continue
        before = [state.get(int(e[4]), (model.mu, model.sigma, 0, 0, None, 0)) for e in entrants]
        after = model.rate(
            [[model.create_rating([mu, sigma])] for mu, sigma, *_ in before],
            ranks=[float(e[5]) for e in entrants],  # type: ignore[arg-type]
        )
        for entrant, old, [new] in zip(entrants, before, after, strict=True):
            tid, day, number, venue, player, place = entrant
            count = old[2] + 1
            state[int(player)] = (new.mu, new.sigma, count, int(tid), day, int(number))  # type: ignore[arg-type]
            points.append(
                {
                    "tournament_id": tid,
                    "player_id": player,
                    "date": day,
                    "session": number,
                    "venue_id": venue,
                    "place": place,
                    "entrants": len(entrants),
                    "mu": new.mu,
                    "sigma": new.sigma,
                    "tournaments": count,
                }
            )
    if points:
        bind.execute(
            sa.text(
                "INSERT INTO rating_points (tournament_id, player_id, date, session, venue_id, place,"
                " entrants, mu, sigma, tournaments) VALUES (:tournament_id, :player_id, :date,"
                " :session, :venue_id, :place, :entrants, :mu, :sigma, :tournaments)"
            ),
            points,
        )
        bind.execute(
            sa.text(
                "INSERT INTO player_ratings (player_id, mu, sigma, tournaments, last_tournament_id,"
                " last_date, last_session) VALUES (:player_id, :mu, :sigma, :tournaments, :tid,"
                " :day, :number)"
            ),
            [
                {
                    "player_id": player,
                    "mu": mu,
                    "sigma": sigma,
                    "tournaments": count,
                    "tid": tid,
                    "day": day,
                    "number": number,
                }
                for player, (mu, sigma, count, tid, day, number) in sorted(state.items())
            ],
        )


def downgrade() -> None:
    op.drop_index("ix_tournaments_rating_order", table_name="tournaments")
    for table in reversed(TABLES):
        if op.get_bind().dialect.name == "postgresql":
            op.execute(f"DROP TRIGGER IF EXISTS data_version_{table} ON {table}")
    op.drop_index(op.f("ix_rating_points_player_id"), table_name="rating_points")
    op.drop_index("ix_rating_points_order", table_name="rating_points")
    op.drop_table("rating_points")
    op.drop_table("player_ratings")
