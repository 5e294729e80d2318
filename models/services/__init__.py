"""Services: take a Session, load what the rules need, call them, write the outcome, flush.

They never commit: the request (or CLI command) commits once, so a refused write changes nothing.
"""
