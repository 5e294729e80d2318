"""The blueprint every resource uses: flask-smorest's, with query strings read strictly, so an
unknown query parameter is named (a 400) rather than silently ignored, and JSON numbers read
exactly, so a fraction is never rounded on its way in."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import flask
from flask_smorest import Blueprint as SmorestBlueprint
from marshmallow import RAISE
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request


class StrictQueryParser(FlaskParser):
    DEFAULT_UNKNOWN_BY_LOCATION = {**FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION, "query": RAISE}

    def _raw_load_json(self, req: flask.Request) -> Any:
        """The JSON body with its numbers that have a fraction or an exponent (0.3, 3e-1) as
        exact Decimals, never binary floats: 0.30000000000000001 stays what it is (and is
        refused for its places), instead of becoming 0.3."""
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:  # as webargs' own reader says it
            message = f"Bytes decoding error : {exc.reason}"
            raise json.JSONDecodeError(message, str(exc.object), exc.start) from exc
        return json.loads(text, parse_float=Decimal)


class Blueprint(SmorestBlueprint):
    ARGUMENTS_PARSER = StrictQueryParser()
