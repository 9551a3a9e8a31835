"""The web layer: pages, the table's socket and the JSON API (docs/architecture.md)."""
