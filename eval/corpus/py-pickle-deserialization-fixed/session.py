import base64
import json

from flask import Flask, request

app = Flask(__name__)


def load_session(cookie_value):
    if not cookie_value:
        return {}
    try:
        data = json.loads(base64.b64decode(cookie_value))
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


@app.route("/cart")
def cart():
    session = load_session(request.cookies.get("session"))
    items = session.get("items", [])
    return {"count": len(items), "items": items}
