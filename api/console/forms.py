"""The console's forms (Flask-WTF): every one carries a CSRF token, and a post without it is
refused."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    DateField,
    HiddenField,
    IntegerField,
    PasswordField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from api.words import FORMS, choices, label_text
from models.entities import REPORT_KINDS
from models.rules.drafts import FIRST_SESSION, LAST_SESSION
from models.rules.sanctions import CATEGORIES, KINDS

SANCTION, CHART, KEY = FORMS["sanction"], FORMS["chart"], FORMS["key"]
# R17: the office's reason for a night past the hosts' window (or in a published season); R16:
# its reason to let a suspended or banned player stand.
LATE_REASON = label_text(FORMS["report"]["reason"])
OVERRIDE_REASON = label_text(FORMS["report"]["override_reason"])


class SignInForm(FlaskForm):
    key = PasswordField("API key", validators=[DataRequired("Paste your key."), Length(max=200)])


class SignOutForm(FlaskForm):
    pass


class TokenForm(FlaskForm):
    """Only the CSRF token: the form of an API schema (api/console/api_forms.py) brings its fields."""


class ReportForm(FlaskForm):
    """Tonight's results: the night, and the finishing order as a spreadsheet (a file: CSV, .xlsx
    or .ods; or CSV pasted), with the columns the API takes (place, and player_id,
    membership_number, email or full_name; status)."""

    date = DateField("Date", validators=[InputRequired("Give the night's date.")])
    session = IntegerField(
        "Session", default=1, validators=[InputRequired(), NumberRange(min=FIRST_SESSION, max=LAST_SESSION)]
    )
    kind = SelectField("Kind", choices=choices("tournament_kind", REPORT_KINDS))
    sheet = FileField("Spreadsheet (CSV, .xlsx or .ods)")
    pasted = TextAreaField(
        "…or paste the rows (CSV, with its header row)", validators=[Optional(), Length(max=2_000_000)]
    )
    late_reason = StringField(LATE_REASON, validators=[Optional(), Length(max=2000)])
    # Given on the refusal's page only (refused.html), when a sheet names a barred player.
    override_reason = StringField(OVERRIDE_REASON, validators=[Optional(), Length(max=2000)])


class ConfirmForm(FlaskForm):
    """The previewed report (or correction), sent again to be stored."""

    date = HiddenField(validators=[DataRequired()])
    session = HiddenField(validators=[DataRequired()])
    kind = HiddenField(validators=[DataRequired()])
    csv = HiddenField(validators=[DataRequired()])
    report_id = HiddenField()  # a correction's report, its version read, and why
    version = HiddenField()
    reason = HiddenField()
    override_reason = HiddenField()  # R16: the office's, letting a sanctioned player stand


class CorrectionForm(FlaskForm):
    """R17: a report's rows again (typed rows, prefilled from the stored report; read from the
    form by number), and why it is corrected."""

    reason = StringField(
        "Why it is corrected",
        validators=[DataRequired("Give the reason: it is kept with the report."), Length(max=2000)],
    )
    version = HiddenField()


class AgainForm(FlaskForm):
    """A refused sheet posted again: as another session of the same night (a 409: the venue's
    date and session already hold a report), or by the office with the reason a night reported
    late needs (R17) or its reason to let a sanctioned player stand (R16): the upload form's
    fields, hidden, and those reasons."""

    date = HiddenField()
    session = HiddenField()
    kind = HiddenField()
    pasted = HiddenField()
    late_reason = StringField(LATE_REASON, validators=[Optional(), Length(max=2000)])
    override_reason = StringField(OVERRIDE_REASON, validators=[Optional(), Length(max=2000)])


class SearchForm(FlaskForm):
    """A GET search: no CSRF (it changes nothing)."""

    class Meta:
        csrf = False

    q = StringField("Player's name", validators=[Optional(), Length(max=120)])


class SanctionForm(FlaskForm):
    """A sanction for the player on the page; checked by the API's own schema and rules."""

    kind = SelectField(label_text(SANCTION["kind"]), choices=choices("sanction_kind", KINDS))
    category = SelectField(label_text(SANCTION["category"]), choices=choices("sanction_category", CATEGORIES))
    venue_id = SelectField(label_text(SANCTION["venue_id"]), choices=[], validate_choice=False)
    first_day = DateField(label_text(SANCTION["first_day"]), validators=[Optional()])
    last_day = DateField(label_text(SANCTION["last_day"]), validators=[Optional()])
    reason = TextAreaField(label_text(SANCTION["reason"]), validators=[Length(max=2000)])


class LiftForm(FlaskForm):
    reason = TextAreaField("Why it ends early", validators=[Length(max=2000)])


class VoidForm(FlaskForm):
    reason = TextAreaField("Why it is voided", validators=[Length(max=2000)])
    version = HiddenField()  # the version read: refused if the report changed since


class KeyForm(FlaskForm):
    """A host key for one venue (the office makes office keys with the CLI or the API)."""

    name = StringField(label_text(KEY["name"]), validators=[DataRequired("Name the key."), Length(max=120)])
    venue_id = SelectField(label_text(KEY["venue_id"]), choices=[], validate_choice=False)


class RevokeForm(FlaskForm):
    pass


class PublishForm(FlaskForm):
    """Publish a season's lists; the ties at the cut settled by the draws ticked on the page."""

    note = TextAreaField("A note with the lists (optional)", validators=[Optional(), Length(max=2000)])


class MergeForm(FlaskForm):
    duplicate_id = HiddenField(validators=[DataRequired()])
    reason = StringField("Why they are the same person", validators=[Length(max=2000)])


class NotDuplicateForm(FlaskForm):
    other_id = HiddenField(validators=[DataRequired()])
    reason = StringField("Why they are two people", validators=[Length(max=2000)])


class UndoForm(FlaskForm):
    reason = StringField("Why the merge is undone", validators=[Length(max=2000)])


class TypedRowsForm(FlaskForm):
    """Tonight's results typed row by row (the rows' fields are read from the form by number)."""

    date = DateField("Date", validators=[InputRequired("Give the night's date.")])
    session = IntegerField(
        "Session", default=1, validators=[InputRequired(), NumberRange(min=FIRST_SESSION, max=LAST_SESSION)]
    )
    kind = SelectField("Kind", choices=choices("tournament_kind", REPORT_KINDS))
    late_reason = StringField(LATE_REASON, validators=[Optional(), Length(max=2000)])
    override_reason = StringField(OVERRIDE_REASON, validators=[Optional(), Length(max=2000)])


class DisplayNameForm(FlaskForm):
    """A display name of the office's choosing for a player who shares theirs with another (R19),
    checked as the API's PATCH checks it."""

    display_name = StringField(
        "Display name", validators=[DataRequired("Give the display name."), Length(max=120)]
    )
    venue_id = HiddenField()  # the venue whose standings it was sent from, if any


class ChartForm(FlaskForm):
    """A points chart of any kind (R7), as the API takes it: the fields of the kind chosen are
    read, the others left empty."""

    name = StringField(
        label_text(CHART["name"]), validators=[DataRequired("Name the chart."), Length(max=120)]
    )
    kind = SelectField(
        label_text(CHART["kind"]),
        choices=[
            ("top_fraction", "Top of the field (fraction, step)"),
            ("bands", "Bands (a host binder's table)"),
            ("formula", "Formula (or a preset)"),
        ],
        validate_choice=False,  # the API's schema refuses another kind, naming it
    )
    fraction = StringField(label_text(CHART["fraction"]), validators=[Length(max=10)])
    step = StringField(label_text(CHART["step"]), validators=[Length(max=10)])
    bands = TextAreaField(label_text(CHART["bands"]), validators=[Length(max=20000)])
    formula = StringField(label_text(CHART["formula"]), validators=[Length(max=1000)])
    preset = SelectField(
        label_text(CHART["preset"]),
        choices=[
            ("", "none: the formula above"),
            ("linear", "linear: n - p + 1, every place scores"),
            ("square_root", "square root: sqrt(n) / sqrt(p) * 100"),
            ("logarithmic", "logarithmic: (ln(n + 1) - ln(p)) * 100"),
        ],
        validate_choice=False,
    )
