"""The blueprint every resource uses: flask-smorest's, with query strings read strictly, so an
unknown query parameter is named (a 400) rather than silently ignored."""

from __future__ import annotations

from flask_smorest import Blueprint as SmorestBlueprint
from marshmallow import RAISE
from webargs.flaskparser import FlaskParser


class StrictQueryParser(FlaskParser):
    DEFAULT_UNKNOWN_BY_LOCATION = {**FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION, "query": RAISE}


class Blueprint(SmorestBlueprint):
    ARGUMENTS_PARSER = StrictQueryParser()
