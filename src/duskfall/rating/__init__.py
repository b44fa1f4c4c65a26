"""Rating: pure fits of skill to rated games and their checks (Bradley-Terry and OpenSkill
behind :class:`~duskfall.rating.models.RatingModel`, deal-bootstrap intervals, what the games
identify, held-out prediction, the sequential stopping statistics); no I/O and nothing of
the arena."""
