"""The async runtime: participants, handlers that ask and validate, the scheduler."""
