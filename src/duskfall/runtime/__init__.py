"""The async runtime: the participant seam (``DecisionRequest``, ``BaseParticipant``),
handlers that ask and validate, the scheduler and the game record."""
