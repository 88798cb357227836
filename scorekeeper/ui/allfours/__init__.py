"""The All Fours screens (``screens``, the module the registry names, and the hand
screen's parts in ``hand_view``) and their view-models, which import no Flet:
``form`` (a new match), ``table`` (the hand screen), ``count`` (the Game-point
helper, Seven Up's chips) and ``words`` (a hand in words)."""
