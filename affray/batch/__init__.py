"""Batch runs (``affray battle``): a scenario fought many times over seeds derived from one, its outcomes
gathered into results and a report with honest statistics."""
