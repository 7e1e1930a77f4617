"""What a log records: the Event base, the kinds and state every ruleset shares, vocabularies, the codec;
each ruleset's kinds and state in a package of its name."""
