"""The labels of each form (a part of api/words), as the form shows them: the console's pages
draw their labels from here, and a refusal names a field by the same label. `IN_A_SENTENCE`
says an API field name met inside a sentence ("Must be on or after the first day")."""

from __future__ import annotations

from typing import Any

from models.rules.schedules import MOST_GAMES_A_WEEKDAY

# A field's label, or (label, help); a list of rows' columns under "name.*" (their labels, in
# order) and "name.*.names" (their names in the API's schema, where a refusal names them).
Label = str | tuple[str, ...]


def label_text(given: Any) -> str:
    """A label without its help."""
    return str(given[0]) if isinstance(given, tuple) else str(given)


SEASON: dict[str, Label] = {
    "name": ("Name", "As players will read it, e.g. Spring 2027."),
    "starts_on": ("First day", ""),
    "ends_on": ("Last day", "Usually 6 to 12 weeks after the first day."),
    "region_ids": (
        "Regions",
        "The venues of these regions play in the season. None ticked: every region.",
    ),
    "championship_date": ("Championship day", "After the season's last day. Empty: not set yet."),
    "points_chart_id": (
        "Points chart",
        "How many points each place earns. Empty: the default chart (the top 30% score, 10 points a place).",
    ),
    "participation_points": (
        "Points for taking part",
        "Earned every night by each entrant who played, withdrew or was absent.",
    ),
    "attendance_bonus": (
        "Attendance bonus",
        "Extra points, once, for a player who played at least this many nights at a venue; the "
        "highest tier reached counts. Leave a row empty to drop it.",
    ),
    "attendance_bonus.*": ("Nights played", "Bonus points"),
    "attendance_bonus.*.names": ("events", "points"),
    "count_best": (
        "Count only each player's best nights",
        "How many of a player's best nights count toward their total. Empty: every night counts.",
    ),
    "absent_keeps_place_points": (
        "A player marked absent keeps the points of their place",
        "Otherwise they get only the points for taking part.",
    ),
    "cut_fraction": (
        "Share of average attendance who qualify",
        "A decimal: 0.2 sends one player for every five on an average night (at least one a venue).",
    ),
    "min_events_to_qualify": ("Fewest nights played to qualify", "At the venue they qualify from."),
    "min_age": ("Minimum age to qualify", "On the championship day."),
    "double_qualifier_policy": (
        "Where a player who qualifies at several venues goes",
        "They qualify from one venue only; the next player moves up at the others.",
    ),
    "correction_days": (
        "Days a host may correct or void a night",
        "Counted from the night; after that only the office may.",
    ),
    "knockout_points": (
        "Points for each player knocked out",
        "0: knockouts are kept but earn nothing.",
    ),
    "bounty": (
        "Bounty",
        "On the venue's standings leader before the night (all tied at the top), or on the winner of "
        "the venue's last night. Not carried over when that player does not play.",
    ),
    "bounty_points": ("Points for knocking out the bounty's player", ""),
}


def venue_labels(league_zone: str) -> dict[str, Label]:
    """A venue's fields; the zone's help names the league's own."""
    return {
        "name": ("Name", "As players know it, e.g. The Crown. No two venues of a region share one."),
        "region_id": ("Region", "Its venues meet at one regional playoff."),
        "city": ("City", ""),
        "timezone": (
            "Time zone",
            f"Only where the venue's clock differs from the league's ({league_zone}), e.g. "
            "America/Denver: its nights and dates are read on it. Empty: the league's.",
        ),
        "active": ("Active", "Untick when the venue no longer plays in the league."),
        "table_size": ("Players at a table", "For the night's seat draw (R22). Empty: 10."),
        "structure_id": ("Blind structure", "The levels its nights play. Empty: the league's."),
        "late_after_level": (
            "Late registration closes after level",
            "Its break, if one follows, is still open. Empty (and no minutes): after the first break.",
        ),
        "late_minutes": ("Or: late registration closes after this many minutes of play", ""),
    }


FORMS: dict[str, dict[str, Label]] = {
    "season": SEASON,
    "season_settings": {
        **SEASON,
        "reason": ("Why (for the audit log)", "Needed when the change rescores nights already stored."),
    },
    "region": {"name": ("Name", "The area whose venues meet at one regional playoff, e.g. North Side.")},
    "venue": venue_labels("the league's"),
    "venue_nights": {
        "schedule": (
            "Regular nights",
            f"Each week's nights, on the venue's clock: at most {MOST_GAMES_A_WEEKDAY} on one weekday. "
            "Start as HH:MM, e.g. 19:30; sessions: 1 if left empty. To drop a night, empty its row "
            "(weekday —, no start).",
        ),
        "schedule.*": ("Weekday", "Starts at", "Sessions"),
    },
    "night_change": {
        "kind": ("What changes", ""),
        "date": ("Date", "The regular night cancelled or moved, or the make-up night's date."),
        "to": ("Moved to", "A moved night's new date."),
        "starts_at": (
            "Starts at",
            "HH:MM on the venue's clock, e.g. 19:30. A make-up night needs it; a moved night keeps "
            "its regular start when left empty.",
        ),
        "sessions": ("Sessions", "A make-up night's; 1 if left empty."),
        "note": ("Note", "Shown with the night, e.g. Closed for the holiday."),
    },
    "league_settings": {
        "name": ("The league's name", "As the website's front door shows it."),
        "timezone": (
            "Time zone",
            "Where the league's dates are read (a venue without a zone of its own uses it), e.g. "
            "America/Chicago. Empty: the server's default.",
        ),
        "min_suspension_days": ("Shortest suspension, in days", "Counting the first and the last day."),
        "min_outside_alcohol_months": ("Shortest suspension for outside alcohol, in months", ""),
        "max_entrants": ("Most entrants in one report", ""),
        "embed_frame_ancestors": (
            "Sites that may show the embedded standings",
            "* for any site, or the sites' addresses separated by spaces, or 'none'.",
        ),
        "erase_inactive_after_months": (
            "Erase inactive players after this many months",
            "Players with no result in this long have their personal data erased. Empty: never.",
        ),
        "structure_id": (
            "Blind structure of the league's nights",
            "Where a venue names none. Empty: the built-in one (2,000 chips, 20-minute levels).",
        ),
        "date_format": (
            "How dates read",
            "On the console, the embedded pages, the emails and the chat messages (R24): a pattern "
            "such as EEE d MMM y (Tue 1 Dec 2026) or d/M/y (1/12/2026), or short, medium, long, full.",
        ),
        "locale": ("Language and region of dates and times", "e.g. en_GB (19:00) or en_US (7:00 PM)."),
    },
    "structure": {
        "name": ("Name", "As hosts choose it, e.g. Championship: 30-minute levels."),
        "starting_chips": ("Starting chips", ""),
        "levels": (
            "Levels",
            "In order, one a row: blinds never fall; 1 to 120 minutes. To drop a level, empty its row.",
        ),
        "levels.*": ("Small blind", "Big blind", "Minutes"),
        "breaks": ("Breaks", "Each after a level that has another after it; 1 to 120 minutes."),
        "breaks.*": ("After level", "Break minutes", "What happens (e.g. chip up the 25s)"),
    },
    "player": {
        "full_name": ("Full name", "As on the player's ID: only the office and their venues' hosts see it."),
        "display_name": ("Display name", "As the standings show it, e.g. Ann B."),
        "email": ("Email", ""),
        "date_of_birth": ("Date of birth", ""),
        "membership_number": ("Membership number", "The date of birth YYYYMMDD, then a 4-digit PIN."),
        "home_venue_id": ("Home venue", ""),
    },
    "erase": {
        "reason": ("Why", "The player's request, and how it came (kept in the audit log)."),
        "display_name": ("Name shown from now on", "Empty: “Former player” and their number."),
    },
    "disqualification": {
        "player_id": ("Player", "The season's players, by name; or find anyone by name above."),
        "reason": ("Why", "Kept with the record and in the audit log."),
    },
    "withdraw": {"reason": ("Why it is withdrawn", "Kept with the record and in the audit log.")},
    "re_entry": {
        "allowed": (
            "Re-entry allowed",
            "A player out may come back once, at a break, with a new stack; still one entrant with one "
            "place.",
        ),
        "until_break": (
            "Until which break",
            "1: at the first break only; 2: at the first or the second; empty: at any break.",
        ),
    },
    "webhook": {
        "url": ("Where to send (https://…)", "The receiver's address. Never one on a private network."),
        "events": (
            "What it hears",
            "Ticked: what its format wants. A chat hears each report posted, corrected or voided, "
            "one message each (never a second for the standings); JSON the reports and the "
            "standings. Sanction events reach it only if it is for staff.",
        ),
        "venue_id": ("Only this venue", "Empty: every venue (or a region below)."),
        "region_id": ("Only this region", "Empty: the whole league."),
        "format": ("Format", "JSON: the event itself, signed; Discord or Slack: a chat message."),
        "staff": ("For staff: it may hear of sanctions", ""),
        "description": ("What it is for", "e.g. The website's standings cache."),
    },
    "chart": {
        "name": "Name",
        "kind": "Kind",
        "fraction": "Fraction that scores (e.g. 0.3; empty: the kind's own)",
        "step": "Points between places (top of the field; empty: 10)",
        "bands": (
            "Bands, one a line: entrants, then the points of places 1, 2, 3 … "
            "(e.g. 2-9: 30, 20, 10 or 10+: 50, 40)"
        ),
        "bands.*": ("Fewest entrants", "Most entrants", "Points"),
        "bands.*.names": ("min_entrants", "max_entrants", "points"),
        "formula": "Formula of n, p and k (e.g. sqrt(n) / sqrt(p) * 100)",
        "preset": "Or a preset",
    },
    "sanction": {
        "player_id": "Player",
        "kind": "Kind",
        "category": "Category",
        "venue_id": "Venue (a venue ban only)",
        "first_day": "First day",
        "last_day": "Last day (both days count; empty: permanent)",
        "permanent": "Permanent",
        "reason": "Reason",
    },
    "key": {"name": "Who holds it (e.g. Host: Crown, Sam)", "venue_id": "Venue"},
    "display_name": {"display_name": "Display name"},
    "report": {
        "venue_id": "Venue",
        "date": "Date",
        "session": "Session",
        "kind": "Kind",
        "reason": "Office only: why this night is reported late (past the hosts' window, or lists published)",
        "override_reason": "The office's reason to let a sanctioned player stand",
        "results": "The finishing order",
    },
    # The night's page, at the door (R22): who signs in, and the office's override (R16).
    "night": {
        "player": "Player",
        "player.player_id": "Player",
        "player.membership_number": "Membership number",
        "player.email": "Email",
        "player.full_name": "Name",
        "player.new_player": "New player",
        "player.new_player.full_name": "New player's full name",
        "player.new_player.email": "New player's email",
        "players": "Players out",
        "player_id": "Player",
        "chips": "Chips",
        "late": "Late entry",
        "clock": "Clock",
        "override_reason": "The office's reason to let a suspended or banned player in",
        "session": "Session",
        "structure_id": "Blind structure",
    },
}


# How an API field name reads inside a sentence ("Must be on or after the first day"), where the
# form's own label does not say it.
IN_A_SENTENCE = {
    "starts_on": "the first day",
    "ends_on": "the last day",
    "first_day": "the first day",
    "last_day": "the last day",
    "championship_date": "the championship day",
    "min_entrants": "the fewest entrants",
    "max_entrants": "the most entrants",
    "override_reason": "the office's reason to let them play",
    "player_id": "the player",
    "venue_id": "the venue",
    "region_id": "the region",
    "region_ids": "the regions",
    "points_chart_id": "the points chart",
    "structure_id": "the blind structure",
    "home_venue_id": "the home venue",
    "membership_number": "the membership number",
    "full_name": "the full name",
    "display_name": "the display name",
    "date_of_birth": "the date of birth",
    "knocked_out_by": "who knocked them out",
    "new_player": "a new player",
    "small_blind": "the small blind",
    "big_blind": "the big blind",
    "after_level": "the level it follows",
    "starting_chips": "the starting chips",
    "late_after_level": "the level late registration closes after",
    "late_minutes": "the minutes late registration closes after",
    "table_size": "the players at a table",
    "cut_fraction": "the share who qualify",
    "attendance_bonus": "the attendance bonus",
    "count_best": "the best nights counted",
    "correction_days": "the days a host may correct a night",
    "participation_points": "the points for taking part",
    "knockout_points": "the points for a knockout",
    "bounty_points": "the bounty's points",
    "min_events_to_qualify": "the fewest nights to qualify",
    "min_age": "the minimum age",
    "double_qualifier_policy": "where a double qualifier goes",
    "absent_keeps_place_points": "whether an absent player keeps their place's points",
    "date_format": "how dates read",
    "erase_inactive_after_months": "the months before inactive players are erased",
    "embed_frame_ancestors": "the sites that may show the embedded pages",
    "min_suspension_days": "the shortest suspension",
    "min_outside_alcohol_months": "the shortest suspension for outside alcohol",
    "dry_run": "a preview",
}
