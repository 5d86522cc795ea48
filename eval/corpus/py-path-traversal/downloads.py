import os

from flask import Flask, abort, request, send_file

app = Flask(__name__)
BASE_DIR = "/srv/reports"


@app.route("/download")
def download():
    name = request.args.get("name", "")
    path = os.path.join(BASE_DIR, name)
    if not os.path.isfile(path):
        abort(404)
    return send_file(path)
