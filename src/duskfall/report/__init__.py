"""Reports: what a tournament's games say, in every format. Behaviour metrics and belief
calibration read from the logs, the board (ratings from :mod:`duskfall.rating` with win rates,
pairs and tiers), paired ablations, and their drawing as terminal tables, JSON, CSV, the HTML
report and its SVG plots, every behaviour column declared once in
:mod:`duskfall.report.columns`."""
