"""The arena: tournaments (config, schedules of deals, a driver that owns the record over
worker processes or a Ray cluster, leases and retries, a stopping rule), the board (ratings
with intervals, behaviour metrics from the variant's declared facts, reports) and
``duskfall simulate`` (many quick games with win rates)."""
