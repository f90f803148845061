"""Quiz buzzers: the slap buttons as a quiz lockout."""

from companion.games.quiz.rules import Quiz

GAME = Quiz()
