"""A headless Chromium driven over the DevTools protocol, standard library only.

    with Browser(chromium_path) as b:
        page = b.new_page(width=1200, height=800)
        page.navigate("file:///.../page.html")
        page.evaluate("document.title")

The browser is started with --remote-debugging-pipe: it reads commands on
its fd 3 and writes replies and events on its fd 4, each message a JSON
object terminated by a NUL byte. A page is a target attached with
flatten:true, so its commands carry a sessionId on the same pipe.
"""
import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time


class ProtocolError(Exception):
    """An error reply, a timeout, or the browser going away."""


class Browser:
    def __init__(self, chromium, timeout=30.0):
        self.timeout = timeout
        self.profile_dir = tempfile.mkdtemp(prefix="ms-html-chromium-")
        # The browser's fd 3 reads our commands, its fd 4 takes its replies.
        cmd_read, self._cmd_write = os.pipe()
        self._reply_read, reply_write = os.pipe()
        # In the child the two ends move to 3 and 4 (dup2 before exec), and
        # pass_fds=(3, 4) keeps those numbers open across the exec.
        def wire():
            a = os.dup(cmd_read)
            b = os.dup(reply_write)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.close(a)
            os.close(b)
        self.proc = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--user-data-dir=" + self.profile_dir,
             "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking",
             "--hide-scrollbars", "--mute-audio", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, pass_fds=(3, 4),
            preexec_fn=wire)
        os.close(cmd_read)
        os.close(reply_write)
        self._buffer = b""
        self._next_id = 0
        self._events = []

    # The pipe.
    def _send(self, message):
        data = json.dumps(message).encode() + b"\0"
        while data:
            n = os.write(self._cmd_write, data)
            data = data[n:]

    def _receive(self, deadline):
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProtocolError("no reply from the browser in time")
            ready, _, _ = select.select([self._reply_read], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._reply_read, 1 << 20)
            if not chunk:
                raise ProtocolError("the browser closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=None):
        """Sends one command and returns its result; events meanwhile queue."""
        self._next_id += 1
        mid = self._next_id
        message = {"id": mid, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self._send(message)
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == mid:
                if "error" in reply:
                    raise ProtocolError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            if "method" in reply:
                self._events.append(reply)

    def pump(self, seconds=0.0):
        """Reads the events that arrive within the given time."""
        deadline = time.monotonic() + seconds
        try:
            while True:
                ready, _, _ = select.select(
                    [self._reply_read], [], [],
                    max(0.0, deadline - time.monotonic()))
                if not ready and b"\0" not in self._buffer:
                    return
                self._events.append(self._receive(time.monotonic() + 5))
                if b"\0" not in self._buffer and time.monotonic() >= deadline:
                    return
        except ProtocolError:
            return

    def take_events(self, session):
        mine = [e for e in self._events if e.get("sessionId") == session]
        self._events = [e for e in self._events if e.get("sessionId") != session]
        return mine

    def new_page(self, width=1200, height=800):
        """The browser's first tab (about:blank), or a new one."""
        tabs = [t for t in self.call("Target.getTargets")["targetInfos"]
                if t["type"] == "page" and not t.get("attached")]
        if tabs:
            target_id = tabs[0]["targetId"]
        else:
            target_id = self.call("Target.createTarget",
                                  {"url": "about:blank"})["targetId"]
        attached = self.call("Target.attachToTarget",
                             {"targetId": target_id, "flatten": True})
        page = Page(self, attached["sessionId"])
        page.call("Runtime.enable")
        page.call("Log.enable")
        page.call("Page.enable")
        page.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1,
                   "mobile": False})
        return page

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except (ProtocolError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._cmd_write, self._reply_read):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile_dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    """One tab: commands on its session, its console and exceptions kept."""

    def __init__(self, browser, session):
        self.browser = browser
        self.session = session
        self.console_errors = []
        self.exceptions = []
        self.loaded = False

    def call(self, method, params=None, timeout=None):
        result = self.browser.call(method, params, self.session, timeout)
        self._collect()
        return result

    def _collect(self):
        for e in self.browser.take_events(self.session):
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                text = d.get("exception", {}).get("description") or d.get("text")
                self.exceptions.append(text)
            elif m == "Runtime.consoleAPICalled" and p.get("type") in (
                    "error", "assert"):
                self.console_errors.append(" ".join(
                    str(a.get("value", a.get("description", "")))
                    for a in p.get("args", [])))
            elif m == "Page.loadEventFired":
                self.loaded = True
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                self.console_errors.append(p["entry"].get("text", ""))

    def navigate(self, url, timeout=30.0):
        """Loads the URL and waits for its load event."""
        self.loaded = False
        result = self.call("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise ProtocolError("cannot load %s: %s" % (url, result["errorText"]))
        deadline = time.monotonic() + timeout
        while not self.loaded:
            if time.monotonic() > deadline:
                raise ProtocolError("%s did not finish loading" % url)
            self.browser.pump(0.02)
            self._collect()

    def evaluate(self, expression, await_promise=False):
        result = self.call("Runtime.evaluate",
                           {"expression": expression, "returnByValue": True,
                            "awaitPromise": await_promise})
        if "exceptionDetails" in result:
            d = result["exceptionDetails"]
            raise ProtocolError("evaluating %r: %s" % (
                expression, d.get("exception", {}).get("description")
                or d.get("text")))
        return result["result"].get("value")

    def wait_for(self, expression, timeout=20.0):
        """Polls until the expression is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise ProtocolError("timed out waiting for " + expression)
            time.sleep(0.02)

    def click(self, x, y):
        """A real left click at viewport coordinates."""
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left",
                       "buttons": 0 if kind == "mouseMoved" else 1,
                       "clickCount": 0 if kind == "mouseMoved" else 1})

    def hover(self, x, y):
        self.call("Input.dispatchMouseEvent",
                  {"type": "mouseMoved", "x": x, "y": y, "button": "none"})

    def click_element(self, selector):
        """Scrolls the element into view and clicks its centre."""
        box = self.evaluate(
            "(() => { const e = document.querySelector(%s); if (!e) return null;"
            " e.scrollIntoView({block: 'center', inline: 'center'});"
            " const r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
            % json.dumps(selector))
        if not box:
            raise ProtocolError("no element " + selector)
        self.click(box[0], box[1])

    def key(self, key, code=None, key_code=0):
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent",
                      {"type": kind, "key": key, "code": code or key,
                       "windowsVirtualKeyCode": key_code})

    def insert_text(self, text):
        self.call("Input.insertText", {"text": text})

    def screenshot(self, path, clip=None, full_page=False):
        params = {"format": "png"}
        if clip:
            params["clip"] = dict(clip, scale=1)
        if full_page:
            params["captureBeyondViewport"] = True
        data = base64.b64decode(self.call("Page.captureScreenshot", params)["data"])
        with open(path, "wb") as f:
            f.write(data)
        return data

    def settle(self, seconds=0.05):
        """Lets pending events (console, exceptions) arrive."""
        self.browser.pump(seconds)
        self._collect()
