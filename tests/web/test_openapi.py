"""The API is documented as OpenAPI, with an example for every action of every game."""

from __future__ import annotations

from openapi_spec_validator import validate

from companion.games.registry import all_games


def test_the_document_is_valid_openapi(client):
    spec = client.get("/api/openapi.json").json
    validate(spec)
    assert spec["openapi"].startswith("3.1")


def test_every_action_of_every_game_has_an_example(client):
    spec = client.get("/api/openapi.json").json
    examples = spec["paths"]["/api/tables/{table_id}/actions"]["post"]["requestBody"][
        "content"]["application/json"]["examples"]
    games = all_games()
    assert "scorepad" in games
    for gid, game in games.items():
        for action in game.actions:
            example = examples[f"{gid}.{action.type}"]["value"]["action"]
            assert example["type"] == action.type


def test_every_example_action_is_understood_by_its_game(service):
    """An example may be refused in a fresh game (it is not that player's turn), but never
    as an unknown action: the documentation names real actions."""
    from companion.games.base import HOST
    from companion.table import TableError

    for gid, game in all_games().items():
        players = ["A", "B", "C", "D", "E", "F", "G", "H"][:max(game.min_players, 3)]
        players = players[:game.max_players]
        t = service.create_table(gid, players, "2468")
        for action in game.actions:
            try:
                service.submit(t.id, action.example, HOST)
            except TableError as exc:
                assert exc.rejection.code not in ("unknown_action", "bad_action"), (gid, action)
