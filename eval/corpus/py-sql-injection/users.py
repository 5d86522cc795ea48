import sqlite3


def connect(path="app.db"):
    return sqlite3.connect(path)


def find_user(conn, name):
    cur = conn.cursor()
    query = "SELECT id, name, email FROM users WHERE name = '%s'" % name
    cur.execute(query)
    return cur.fetchone()


def list_users(conn):
    cur = conn.cursor()
    cur.execute("SELECT id, name FROM users ORDER BY name")
    return cur.fetchall()
