"""R24 through the API: how dates read for people (`date_format`, `locale`: a CLDR pattern tried
on a sample date when saved, or a named style) and the league's site (`site`: on or off, title,
welcome, an accent readable on white). Bad values are refused naming the field, changing nothing;
good ones are audited like every setting."""

from __future__ import annotations

from tests.support.league import Caller, League, assert_problem

SETTINGS = "/api/v1/league-settings"


def test_r24_date_format_and_locale_default_and_change_audited(league: League, public: Caller) -> None:
    read = public.get(SETTINGS).get_json()
    assert (read["date_format"], read["locale"]) == ("EEE d MMM y", "en_GB")
    assert read["site"] == {"enabled": True, "title": None, "welcome": None, "accent": "#1d4ed8"}
    changed = league.office.patch(SETTINGS, json={"date_format": "d/M/y", "locale": "en_US"})
    assert changed.status_code == 200, changed.get_json()
    assert (changed.get_json()["date_format"], changed.get_json()["locale"]) == ("d/M/y", "en_US")
    entries = league.office.get("/api/v1/audit-log?action=league_settings.update").get_json()["items"]
    assert (
        entries[0]["after"]["date_format"] == "d/M/y" and entries[0]["before"]["date_format"] == "EEE d MMM y"
    )


def test_r24_a_date_format_that_is_not_a_date_is_refused_naming_it(league: League, public: Caller) -> None:
    for pattern in ("HH:mm", "qqqqqqq", "'soon'", "y"):
        problem = assert_problem(
            league.office.patch(SETTINGS, json={"date_format": pattern}), 422, "date_format"
        )
        assert pattern in problem["errors"]["date_format"][0]
    assert_problem(league.office.patch(SETTINGS, json={"locale": "xx_NOWHERE"}), 422, "locale")
    assert public.get(SETTINGS).get_json()["date_format"] == "EEE d MMM y"
    assert league.office.patch(SETTINGS, json={"date_format": "medium"}).status_code == 200


def test_r24_the_site_settings_and_an_accent_too_pale_to_read(league: League, public: Caller) -> None:
    site = {
        "enabled": False,
        "title": "Bar Poker North",
        "welcome": "Free poker, six nights a week.",
        "accent": "#7a1f1f",
    }
    changed = league.office.patch(SETTINGS, json={"site": site})
    assert changed.status_code == 200, changed.get_json()
    assert changed.get_json()["site"] == site
    pale = assert_problem(
        league.office.patch(SETTINGS, json={"site": {"accent": "#ffdd00"}}), 422, "site.accent"
    )
    assert "contrast" in str(pale["errors"])
    assert_problem(league.office.patch(SETTINGS, json={"site": {"accent": "yellow"}}), 422, "site.accent")
    assert_problem(league.office.patch(SETTINGS, json={"site": {"enabled": "yes"}}), 422, "site.enabled")
    assert public.get(SETTINGS).get_json()["site"] == site
    # Only the office changes them.
    assert_problem(public.patch(SETTINGS, json={"site": {"enabled": True}}), 401)
