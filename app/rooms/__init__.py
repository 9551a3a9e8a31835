"""The room layer: rooms, their seats and what happens in them (docs/architecture.md)."""
