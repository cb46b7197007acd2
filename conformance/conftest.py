# The vendored suites (python-markdownify's test_*.py among them) are data that
# scripts/conformance.py reads, not tests for pytest to collect.
collect_ignore_glob = ["suites/*"]
