"""Energion controllers: the intents, the frozen view they choose from, nearest and tactician."""
