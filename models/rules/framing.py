"""Which websites may frame the league's embeddable pages: a Content-Security-Policy
`frame-ancestors` source list, as the office sets it (league settings)."""

from __future__ import annotations

import re

ANY_SITE = "*"
# A source: any site, the service's own, none, a scheme ("https:"), or a host with an optional
# scheme, a leading wildcard label and a port ("https://*.example.org:8443"). No paths, quotes
# but around the keywords, or separators: the list goes into a response header as it is.
SOURCE = re.compile(
    r"\*|'self'|'none'|[a-z][a-z0-9+.-]*:"
    r"|(?:[a-z][a-z0-9+.-]*://)?(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*"
    r"(?::(?:[0-9]{1,5}|\*))?",
    re.ASCII,
)
MOST_SOURCES = 32


def frame_ancestors(value: str) -> str:
    """The source list, normalised (lower case, single spaces); ValueError saying what is wrong."""
    sources = value.lower().split()
    if not sources:
        raise ValueError("Give at least one source: * (any site), 'none', or sites like https://example.org.")
    if len(sources) > MOST_SOURCES:
        raise ValueError(f"At most {MOST_SOURCES} sources.")
    wrong = [source for source in sources if not SOURCE.fullmatch(source)]
    if wrong:
        raise ValueError(
            f"Not a source: {wrong[0]}. Use * (any site), 'self', 'none', a scheme such as https:, "
            "or a site such as https://example.org or https://*.example.org (no paths)."
        )
    if "'none'" in sources and len(sources) > 1:
        raise ValueError("'none' stands alone: no site may frame the pages.")
    return " ".join(dict.fromkeys(sources))
