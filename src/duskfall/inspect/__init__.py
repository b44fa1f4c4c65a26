"""duskfall games as inspect_ai tasks (the ``inspect`` extra).

``inspect eval duskfall/werewolf --model PROVIDER/MODEL -T opponents=heuristic -T games=20``
plays games in which the model under evaluation holds chosen seats through inspect_ai's own
model API (so every inspect provider works), one sample per game, scored for wins, behaviour
metrics and belief calibration (:mod:`duskfall.inspect.tasks`). ``llm:inspect`` is the duskfall
agent of those seats (:mod:`duskfall.inspect.provider`). Nothing here is imported unless used:
inspect_ai finds the tasks through its entry point (:mod:`duskfall.inspect._registry`).
"""
