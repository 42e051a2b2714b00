"""A WSGI app that only says "ok", for testing the gunicorn worker without the whole site."""


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]
