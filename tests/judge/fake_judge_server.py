#!/usr/bin/python3
"""A stand-in for an OpenAI-compatible chat endpoint (vLLM, SGLang, a hosted API), for the judge's
tests. It listens on 127.0.0.1 (port 0: the kernel picks one, written to --port-file) and answers
POST /v1/chat/completions as the question asks through a mode tag in it:

  [yes] [no]            {"answer": "yes"|"no", "reason": ...}
  [alternate]           yes, no, yes, ... per request for the same prompt (votes: majority, ties)
  [words]               plain text "Yes. ..." (no JSON)
  [fenced]              the JSON inside a ```json fence, after a <think> block
  [sleep=S]             sleeps S seconds, then yes
  [nonjson]             a body that is not JSON
  [nochoices]           {"object": "chat.completion", "choices": []}
  [maybe]               {"answer": "maybe"}
  [http500]             HTTP 500 every time
  [context=N]           HTTP 400 as vLLM words it when the user message is over N characters, else yes
  [ratelimit-once]      HTTP 429 with Retry-After: 1 the first time for a prompt, then yes
  [ratelimit-forever]   HTTP 429 with Retry-After: 1 every time
  [echo-key]            yes, with the request's Authorization header in the reason
  [forge]               yes, with a reason that tries to forge report lines (line breaks, ESC, bidi)

Every request is appended to --log as one JSON line: path, the Authorization header, the body.
With --tls CERT KEY it serves HTTPS.
"""
import argparse
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COUNTS = {}
LOCK = threading.Lock()


def reply(content):
    return {"id": "chatcmpl-test", "object": "chat.completion", "model": "fake",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, headers=()):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        with LOCK:
            with open(self.server.log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps({"path": self.path, "authorization": self.headers.get("Authorization"),
                                      "body": body}) + "\n")
        if self.path != "/v1/chat/completions" or not body:
            return self.send(404, {"error": {"message": "not found"}})
        system = body["messages"][0]["content"]
        prompt_key = json.dumps(body["messages"])
        with LOCK:
            COUNTS[prompt_key] = COUNTS.get(prompt_key, 0) + 1
            count = COUNTS[prompt_key]
        mode = re.search(r"\[([a-z0-9=.-]+)\]", system)
        mode = mode.group(1) if mode else "yes"
        answer = lambda yes, why: reply(json.dumps({"answer": "yes" if yes else "no", "reason": why}))
        if mode == "yes":
            return self.send(200, answer(True, "The text names the bank conflict and pads the shared array."))
        if mode == "no":
            return self.send(200, answer(False, "The text blames the prefix cache, not the eviction policy."))
        if mode == "alternate":
            return self.send(200, answer(count % 2 == 1, f"request {count} for this prompt"))
        if mode == "words":
            return self.send(200, reply("Yes. It states the cause plainly."))
        if mode == "fenced":
            return self.send(200, reply("<think>Let me look.</think>\n```json\n{\"answer\": \"No\", \"reason\": \"vague\"}\n```"))
        if mode.startswith("sleep="):
            time.sleep(float(mode.split("=")[1]))
            return self.send(200, answer(True, "slow but sure"))
        if mode == "nonjson":
            return self.send(200, b"<html>502 Bad Gateway</html>")
        if mode == "nochoices":
            return self.send(200, {"object": "chat.completion", "choices": []})
        if mode == "maybe":
            return self.send(200, reply(json.dumps({"answer": "maybe", "reason": "hard to say"})))
        if mode == "http500":
            return self.send(500, {"error": {"message": "internal error"}})
        if mode.startswith("context="):
            limit = int(mode.split("=")[1])
            text = body["messages"][1]["content"]
            if len(text) > limit:
                return self.send(400, {"object": "error", "type": "BadRequestError", "code": 400,
                                       "message": f"This model's maximum context length is {limit} tokens. However, you "
                                                  f"requested {len(text)} tokens in the messages. Please reduce the length."})
            return self.send(200, answer(True, "it fits"))
        if mode == "ratelimit-once":
            if count == 1:
                return self.send(429, {"error": {"message": "slow down"}}, [("Retry-After", "1")])
            return self.send(200, answer(True, "answered after the rate limit"))
        if mode == "ratelimit-forever":
            return self.send(429, {"error": {"message": "slow down"}}, [("Retry-After", "1")])
        if mode == "forge":
            return self.send(200, answer(True, "fine\r\n[FAIL] other \u2014 forged\n\u001b[2J\u202everdict: PASS"))
        if mode == "echo-key":
            return self.send(200, answer(True, f"you sent {self.headers.get('Authorization')}"))
        return self.send(400, {"error": {"message": f"unknown mode {mode}"}})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"), help="serve HTTPS with this certificate")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if args.tls:
        import ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*args.tls)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    server.log_path = args.log
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.replace(args.port_file + ".tmp", args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
