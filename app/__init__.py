"""Stammtisch: a self-hosted card-table server for German card games."""
