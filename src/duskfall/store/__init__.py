"""Game store: JSONL event logs, the SQLite index (its schema and upgrades in
``index_schema``, its rows and queries in ``index``), replay and resume."""
