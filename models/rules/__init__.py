"""The league's rules as plain typed functions: no Flask, no SQLAlchemy, no I/O."""
