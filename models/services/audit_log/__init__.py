"""Audit log: the services of the API's audit_log resource."""
