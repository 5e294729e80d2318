"""The live night page's one script (R22), allowed by its hash: it counts the level down from the
server's instant (the answer's `Date` header gives the server's time, so a phone's own clock, or
a phone that slept, never moves it), and asks the page again every few seconds with its ETag:
a 304 costs the service next to nothing, a new page (an action, a new level) replaces the old.
Without the script the page still shows the level, blinds and time left as of its answer."""

from __future__ import annotations

POLL_SECONDS = 5

LIVE_SCRIPT = (
    """(function () {
  var root = document.getElementById("night"), tag = null, offset = 0;
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var left = document.getElementById("left");
    if (!left || !left.dataset.ends) return;
    var ms = Date.parse(left.dataset.ends) - (Date.now() + offset);
    var s = Math.max(0, Math.ceil(ms / 1000));
    left.textContent = Math.floor(s / 60) + ":" + pad(s % 60);
  }
  function poll() {
    var headers = tag ? {"If-None-Match": tag} : {};
    fetch(location.href, {cache: "no-store", headers: headers}).then(function (answer) {
      var date = answer.headers.get("Date");
      if (date) offset = Date.parse(date) + 500 - Date.now();
      document.documentElement.classList.remove("offline");
      if (answer.status !== 200) { tick(); return; }
      tag = answer.headers.get("ETag");
      return answer.text().then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("night");
        if (fresh) { root.replaceWith(fresh); root = fresh; }
        tick();
      });
    }).catch(function () { document.documentElement.classList.add("offline"); });
  }
  tick();
  poll();
  setInterval(tick, 1000);
  setInterval(poll, """
    + str(POLL_SECONDS * 1000)
    + """);
})();"""
)
