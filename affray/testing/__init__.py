"""affray for test suites: the pytest plugin (pytest_plugin) that makes golden logs into test items."""
