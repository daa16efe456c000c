"""The JSON API as the tests call it: a JSON body posted or put, the METALLURGENT examples it serves, and a build
created from a document (201, its links returned)."""
import copy
import json


def post_json(client, url, payload, content_type="application/json"):
    body = payload if isinstance(payload, (str, bytes)) else json.dumps(payload)
    return client.post(url, data=body, content_type=content_type)


def put_json(client, url, payload):
    body = payload if isinstance(payload, (str, bytes)) else json.dumps(payload)
    return client.put(url, data=body, content_type="application/json")


def examples(client) -> list[dict]:
    response = client.get("/api/rulesets/metallurgent/examples")
    assert response.status_code == 200
    return response.json()["examples"]


def example(client, task: str = "vanguard") -> dict:
    return copy.deepcopy(next(e for e in examples(client) if e["task"] == task))


def create(client, document: dict) -> dict:
    response = post_json(client, "/api/builds", document)
    assert response.status_code == 201, response.content
    return response.json()

