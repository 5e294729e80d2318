# Shortcuts for the scripts in scripts/ (which need only bash and Python).
.PHONY: serve test ci openapi
serve:
	./scripts/serve
test:
	./scripts/test
ci:
	bash .ci/run
openapi:
	./scripts/openapi
