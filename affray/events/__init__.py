"""The event vocabulary and the log codec."""
