"""The arena runs tournaments: the config and its file, schedules of deals from a secret
master, a driver that owns the record over worker processes or a Ray cluster, leases and
retries, the tournament's progress and its stopping rule, and ``duskfall simulate`` (many
quick games with win rates). The ratings are fitted in :mod:`duskfall.rating`, the reports
drawn in :mod:`duskfall.report`."""
