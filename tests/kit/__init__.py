"""The variant test kit: every variant must pass these checks (as PettingZoo's api_test).

Use from a variant's tests::

    from kit import VariantKit
    KIT = VariantKit("sports-mafia", configs=[{}], scramble=scramble_hidden)
    def test_api(): KIT.check_api()
    ...

``scramble(state, seat, rng) -> State`` returns a copy of ``state`` in which everything
``seat`` may not know (other seats' hidden roles, others' private results, other teams'
chats...) is randomised; the no-leak check asserts the seat's observation, legal choices and
prompts are unchanged by it, which proves they depend only on what the seat may know.
"""

from kit.checks import ScrambleFn, VariantKit, play_random

__all__ = ["ScrambleFn", "VariantKit", "play_random"]
