"""R5 and R19 as pure rules: names, membership numbers, duplicate hints, ages."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.rules.players import (
    DISPLAY_NAME_MAX,
    NAME_KEY_MAX,
    SHARED_WORD_MIN,
    NameIndex,
    age_on,
    default_display_name,
    display_key,
    display_name_clashes,
    distinct_display_name,
    edit_distance,
    name_match_limit,
    normalise_email,
    normalise_name,
    numbered_players,
    parse_membership_number,
    player_label,
    player_labels,
    similar_names,
)

pytestmark = pytest.mark.rules


# Names ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("full_name", "key"),
    [
        ("José  O'Neil", "jose oneil"),
        ("ANN LEE", "ann lee"),
        ("  Ann\tLee  ", "ann lee"),
        ("Zoë Saldaña-Pérez", "zoe saldanaperez"),
        ("Straße", "strasse"),
    ],
)
def test_normalise_name(full_name, key):
    assert normalise_name(full_name) == key


def test_normalise_name_fits_its_column():
    assert len(normalise_name("ß" * 200)) == NAME_KEY_MAX
    assert not normalise_name("ab " * 100).endswith(" ")


@given(st.text(max_size=300))
def test_normalise_name_is_idempotent_and_bounded(text):
    key = normalise_name(text)
    assert len(key) <= NAME_KEY_MAX
    assert normalise_name(key) == key
    assert "  " not in key and key == key.strip()


def test_normalise_email():
    assert normalise_email("  Ann.Lee@Example.ORG ") == "ann.lee@example.org"


@pytest.mark.parametrize(
    ("full_name", "shown"),
    [
        ("Ann Lee", "Ann L."),
        ("mary jane van dyke", "mary D."),
        ("Madonna", "Madonna"),
        ("  Cher  ", "Cher"),
        ("Ann élan", "Ann É."),
    ],
)
def test_r19_default_display_name(full_name, shown):
    assert default_display_name(full_name) == shown


@given(
    st.lists(
        st.text(alphabet=st.characters(categories=["L"]), min_size=1, max_size=200), min_size=1, max_size=4
    )
)
def test_r19_default_display_name_fits_its_column(words):
    assert 0 < len(default_display_name(" ".join(words))) <= DISPLAY_NAME_MAX


# Membership numbers (R5) ------------------------------------------------------------------------


def test_r5_membership_number_is_date_of_birth_and_pin():
    assert parse_membership_number("198507211234") == date(1985, 7, 21)
    assert parse_membership_number("200002290000") == date(2000, 2, 29)


@pytest.mark.parametrize(
    "number",
    [
        "19850721123",
        "1985072112345",
        "19850721123a",
        "",
        "198507211234\n",
        " 198507211234",
        "١٩٨٥٠٧٢١١٢٣٤",
        "202602301234",
        "190002290000",
        "198500001234",
    ],
)
def test_r5_bad_membership_numbers(number):
    with pytest.raises(ValueError):
        parse_membership_number(number)


def test_r5_membership_number_date_within_life():
    today = date(2026, 3, 1)
    assert parse_membership_number("202603011234", today=today) == today
    for number in ("202603021234", "189912311234"):
        with pytest.raises(ValueError, match="between 1900-01-01 and today"):
            parse_membership_number(number, today=today)
    assert parse_membership_number("202603021234") == date(2026, 3, 2)  # no today: no bound


@given(
    st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 12, 31)),
    st.integers(min_value=0, max_value=9999),
)
def test_r5_membership_number_round_trip(born, pin):
    assert parse_membership_number(f"{born:%Y%m%d}{pin:04d}") == born


# Duplicate hints (R5) ---------------------------------------------------------------------------


def levenshtein(a: str, b: str) -> int:
    """A plain reference implementation to check the bounded one against."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        previous, row[0] = row[0], i
        for j, cb in enumerate(b, start=1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (ca != cb))
    return row[-1]


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("ann lee", "ann lee", 0),
        ("jon smith", "john smith", 1),
        ("kitten", "sitting", 3),
        ("", "abc", 3),
        ("ann lea", "ann lee", 1),
    ],
)
def test_edit_distance_examples(a, b, distance):
    assert edit_distance(a, b, 10) == distance


short = st.text(alphabet="abcde ", max_size=10)


@given(short, short)
def test_edit_distance_symmetric_and_zero_iff_equal(a, b):
    unbounded = len(a) + len(b)
    assert edit_distance(a, b, unbounded) == edit_distance(b, a, unbounded)
    assert (edit_distance(a, b, unbounded) == 0) == (a == b)
    assert edit_distance(a, b, unbounded) == levenshtein(a, b)


@given(short, short, st.integers(min_value=0, max_value=4))
def test_edit_distance_bounded_agrees_within_the_limit(a, b, limit):
    """Within the limit the answer is exact; beyond it, it is only said to be beyond."""
    true = levenshtein(a, b)
    found = edit_distance(a, b, limit)
    if true <= limit:
        assert found == true
    else:
        assert found > limit


@given(short, short, short)
def test_edit_distance_triangle(a, b, c):
    big = 40
    assert edit_distance(a, c, big) <= edit_distance(a, b, big) + edit_distance(b, c, big)


def test_r5_name_match_limit():
    assert name_match_limit("ann lee") == 1
    assert name_match_limit("john smithson") == 2


def test_r5_similar_names():
    candidates = [
        (1, "ann lee"),
        (2, "lee ann"),
        (3, "ann lea"),
        (4, "ann leigh"),
        (5, "bob lee"),
        (6, "anne lee"),
    ]
    assert similar_names("ann lee", candidates) == [1, 2, 3, 6]
    assert similar_names("john smith", [(7, "jon smith"), (8, "joan smyth"), (9, "jo smith")]) == [7, 8, 9]
    assert similar_names("zed", candidates) == []


@given(st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=8), min_size=1, max_size=4))
def test_r5_reordered_words_always_match(words):
    key = " ".join(words)
    shuffled = " ".join(reversed(words))
    assert similar_names(key, [(1, shuffled)]) == [1]


def brute_force_matches(name_key: str, names: list[tuple[int, str]]) -> list[int]:
    """What NameIndex promises, by comparing with every name: the same words reordered, or a
    close name starting with the same letter or sharing a word of 3+ letters; closest first."""
    words = name_key.split()
    limit = name_match_limit(name_key)
    found = []
    for player_id, key in names:
        if sorted(key.split()) == sorted(words):
            found.append((0, player_id))
            continue
        shares = key[:1] == name_key[:1] or any(
            len(word) >= SHARED_WORD_MIN and word in words for word in key.split()
        )
        distance = levenshtein(key, name_key)
        if shares and distance <= limit:
            found.append((distance, player_id))
    return [player_id for _, player_id in sorted(found)]


name_keys = st.lists(st.text(alphabet="abcd", min_size=1, max_size=5), min_size=1, max_size=3).map(" ".join)


@given(name_keys, st.lists(name_keys, max_size=30))
def test_r5_name_index_finds_what_comparing_with_every_name_finds(name_key, keys):
    names = list(enumerate(keys, start=1))
    assert NameIndex(names).matches(name_key) == (
        brute_force_matches(name_key, names),
        len(brute_force_matches(name_key, names)),
    )


@given(name_keys, st.lists(name_keys, max_size=30), st.integers(min_value=0, max_value=5))
def test_r5_name_index_lists_the_closest_first_and_counts_them_all(name_key, keys, most):
    names = list(enumerate(keys, start=1))
    index = NameIndex()
    for player_id, key in reversed(names):  # added out of id order: still listed by id
        index.add(player_id, key)
    everyone = brute_force_matches(name_key, names)
    assert index.matches(name_key, most=most) == (everyone[:most], len(everyone))


def test_r5_name_index_examples():
    index = NameIndex([(1, "ann lee"), (2, "lee ann"), (3, "ann lea"), (4, "bob lee"), (5, "xnn lee")])
    index.add(6, "ann lee")
    # Same name (1, 6) and reordered (2) first, then one typo away (3; 5 shares the word "lee").
    assert index.matches("ann lee").closest == [1, 2, 6, 3, 5]
    assert index.matches("ann lee", most=2) == ([1, 2], 5)
    # "zann lee" shares neither its first letter nor a word of 3+ letters with "ann le": not compared.
    assert NameIndex([(7, "ann le")]).matches("zann le").total == 0


# Ages -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("born", "on", "age"),
    [
        (date(2005, 5, 1), date(2026, 4, 30), 20),
        (date(2005, 5, 1), date(2026, 5, 1), 21),
        (date(2004, 2, 29), date(2025, 2, 28), 20),  # a 29 February birthday counts from 1 March
        (date(2004, 2, 29), date(2025, 3, 1), 21),
        (date(2004, 2, 29), date(2028, 2, 29), 24),
    ],
)
def test_age_on(born, on, age):
    assert age_on(born, on) == age


@given(st.dates(max_value=date(2100, 1, 1)), st.dates(max_value=date(2100, 1, 1)))
def test_age_on_never_decreases(born, on):
    if on < born:
        return
    assert age_on(born, on) >= 0
    assert age_on(born, on) <= on.year - born.year


# Telling apart players of one display name (R19) -------------------------------------------------


def test_r19_crystal_kim_and_crystal_king_both_default_to_crystal_k():
    """R19: the default display name shows no more of a surname than its initial."""
    assert default_display_name("Crystal Kim") == default_display_name("Crystal King") == "Crystal K."


def test_r19_only_players_who_share_a_display_name_are_numbered():
    listed = [(48, "Crystal K."), (7, "Ann L."), (49, "Crystal K."), (12, "Bob M.")]
    assert display_name_clashes(listed) == [[48, 49]]
    assert numbered_players(listed) == {48, 49}
    assert player_labels(listed) == {48: "Crystal K. #48", 7: "Ann L.", 49: "Crystal K. #49", 12: "Bob M."}
    assert player_label(48, "Crystal K.", numbered=True) == "Crystal K. #48"
    assert player_label(7, "Ann L.", numbered=False) == "Ann L."


def test_r19_names_are_shared_as_display_keys_compare_them():
    """R19: case, accents, punctuation and spacing do not tell two names apart on a page."""
    listed = [(1, "Crystal K."), (2, "crystal  k"), (3, "Crýstal K"), (4, "Crystal L.")]
    assert display_name_clashes(listed) == [[1, 2, 3]]
    assert player_labels(listed)[4] == "Crystal L."


def test_r19_the_same_player_twice_is_no_clash():
    """A player listed twice in one answer (a qualifier and a region's list) is one player."""
    listed = [(48, "Crystal K."), (48, "Crystal K."), (7, "Ann L.")]
    assert display_name_clashes(listed) == []
    assert player_labels(listed) == {48: "Crystal K.", 7: "Ann L."}


def test_r19_three_of_one_name_are_one_group_in_order_of_first_sight():
    listed = [(9, "Sam S."), (3, "Ann L."), (5, "Sam S."), (4, "Ann L."), (1, "Sam S.")]
    assert display_name_clashes(listed) == [[9, 5, 1], [3, 4]]


@given(
    st.lists(st.tuples(st.integers(1, 30), st.sampled_from(["Ann L.", "ann l", "Bo K.", "Cy"])), max_size=20)
)
def test_r19_a_label_is_the_display_name_with_the_number_only_where_needed(listed):
    """R19: every label starts with the display name; it carries the number exactly when another
    player of the answer has the same display key; so labels of distinct players never repeat."""
    names = dict(listed)
    labels = player_labels(listed)
    assert labels.keys() == names.keys()
    for player_id, name in names.items():
        shared = any(
            display_key(other) == display_key(name) for pid, other in names.items() if pid != player_id
        )
        assert labels[player_id] == (f"{name} #{player_id}" if shared else name)
    keys = [display_key(label) if "#" not in label else label for label in labels.values()]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize(
    ("full_name", "others", "taken", "suggested"),
    [
        # The shortest prefix no other surname starts with...
        ("Crystal King", ["Crystal Kim"], ["Crystal K.", "Crystal K."], "Crystal Kin."),
        # ...short of the whole surname: the longest prefix that still differs from the names taken.
        ("Crystal Kim", ["Crystal King"], ["Crystal K.", "Crystal K."], "Crystal Ki."),
        ("Crystal Kowalski", ["Crystal Kim"], ["Crystal K.", "Crystal K."], "Crystal Ko."),
        ("Crystal Kingsley", ["Crystal King", "Crystal Kim"], ["Crystal K."] * 3, "Crystal Kings."),
        ("Crystal King", ["Crystal Kingsley", "Crystal Kim"], ["Crystal K."] * 3, "Crystal Kin."),
        # Accents and case are compared as names are: "Kím" is "kim".
        ("Crystal King", ["crystal kím"], ["Crystal K."], "Crystal Kin."),
        ("José Álvarez", ["Jose Alvarado"], ["José Á."], "José Álvare."),
        # Middle names play no part: the first name and the last one.
        ("Crystal Ann King", ["Crystal Kim"], ["Crystal K."], "Crystal Kin."),
        # Two of one full name: the prefix short of the surname still tells the display names apart.
        ("Crystal Kim", ["Crystal Kim"], ["Crystal K.", "Crystal K."], "Crystal Ki."),
        # A name already taken is passed over for a longer prefix.
        ("Crystal Kingston", ["Crystal Kim"], ["Crystal K.", "Crystal Kin."], "Crystal King."),
    ],
)
def test_r19_a_distinct_display_name_shows_as_little_of_the_surname_as_tells_them_apart(
    full_name, others, taken, suggested
):
    assert distinct_display_name(full_name, others, taken) == suggested


@pytest.mark.parametrize(
    ("full_name", "others", "taken"),
    [
        ("Crystal Ko", ["Crystal Kolb"], ["Crystal K.", "Crystal K."]),  # only "Ko" itself would
        ("Crystal K", ["Crystal Kim"], ["Crystal K.", "Crystal K."]),  # a one-letter surname
        ("Crystal", ["Crystal Kim"], ["Crystal", "Crystal"]),  # no surname at all
        ("Crystal Kim", ["Crystal King"], ["Crystal K.", "Crystal Ki."]),  # the one prefix is taken
    ],
)
def test_r19_no_suggestion_where_only_the_whole_surname_would_do(full_name, others, taken):
    """R19: never the whole surname: the office renames the other player, or types a name."""
    assert distinct_display_name(full_name, others, taken) is None


SURNAMES = st.text(alphabet="abcdefghijkl", min_size=1, max_size=8).map(str.capitalize)


@given(st.lists(SURNAMES, min_size=2, max_size=5))
def test_r19_a_suggestion_is_never_the_whole_surname_and_never_a_name_taken(surnames):
    """R19: for each of several Crystals of one display name, a suggestion (where there is one)
    keeps the first name, shows a strict prefix of the surname with a dot, and differs from every
    display name taken; and where a prefix no other surname starts with is short of the whole
    surname, the suggestion tells the player apart from every other."""
    full_names = [f"Crystal {surname}" for surname in surnames]
    taken = [default_display_name(name) for name in full_names]
    for i, (name, surname) in enumerate(zip(full_names, surnames, strict=True)):
        others = full_names[:i] + full_names[i + 1 :]
        suggestion = distinct_display_name(name, others, taken)
        if suggestion is None:
            continue
        assert suggestion.startswith("Crystal ") and suggestion.endswith(".")
        shown = suggestion[len("Crystal ") : -1]
        assert surname.startswith(shown) and len(shown) < len(surname)
        assert display_key(suggestion) not in {display_key(t) for t in taken}
        rivals = [other.split()[-1].lower() for other in others]
        if any(
            n < len(surname)
            for n in range(1, len(surname))
            if not any(r.startswith(surname[:n].lower()) for r in rivals)
        ):
            assert not any(r.startswith(shown.lower()) for r in rivals)


def test_r19_a_suggestion_fits_the_stored_width():
    long_first = "A" * 200
    suggestion = distinct_display_name(f"{long_first} King", ["X Kim"], ["A K."])
    assert suggestion is not None and len(suggestion) <= DISPLAY_NAME_MAX and suggestion.endswith(" Kin.")
