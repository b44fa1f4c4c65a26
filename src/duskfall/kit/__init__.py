"""The agent writer's kit: JSON Schema files for the wire protocol (``duskfall schema``), the
tables of the docs generated from them, and the conformance check for a bot in any language
(``duskfall check-bot``)."""
