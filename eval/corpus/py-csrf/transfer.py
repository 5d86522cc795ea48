from flask import Flask, request, session

app = Flask(__name__)
app.secret_key = __import__("os").environ["SECRET_KEY"]
app.config["SESSION_COOKIE_SAMESITE"] = "None"


def move_money(source, target, amount):
    print(f"moving {amount} from {source} to {target}")


@app.route("/transfer", methods=["POST"])
def transfer():
    if "user" not in session:
        return "login required", 401
    move_money(session["user"], request.form["to"], int(request.form["amount"]))
    return "ok"
