import hmac

from flask import Flask, abort, request, session

app = Flask(__name__)
app.secret_key = __import__("os").environ["SECRET_KEY"]
app.config["SESSION_COOKIE_SAMESITE"] = "Strict"


def move_money(source, target, amount):
    print(f"moving {amount} from {source} to {target}")


@app.route("/transfer", methods=["POST"])
def transfer():
    if "user" not in session:
        return "login required", 401
    token = request.form.get("csrf_token", "")
    if not hmac.compare_digest(token, session.get("csrf_token", "")):
        abort(403)
    move_money(session["user"], request.form["to"], int(request.form["amount"]))
    return "ok"
