"""UNO: a referee for the physical game that watches the discard pile, and the match score
keeper (rules/uno.md; decisions in docs/games/uno.md).

Modules: ``deck`` (cards, matching, points), ``options``, ``actions`` (the API), ``moves``
(the referee), ``scoring`` (rounds, totals, export), ``views``, ``camera`` (on_card_seen),
``game`` (the ``GAME`` object).
"""

from companion.games.uno.game import Uno

GAME = Uno()
