"""Game store: JSONL event logs, the SQLite index, replay and resume."""
