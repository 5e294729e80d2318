"""The console night page's one script (R22), allowed by its hash: the forms are sent in the
background (each carries its action id and the night's sequence, so a retry applies once); what
cannot be sent while the phone is offline waits in the phone's storage, shown as waiting, and is
sent, in order, when the phone is back. The page is redrawn from each answer. It counts the level
down from the server's time (the page's `data-now`, then each answer's `Date`)."""

from __future__ import annotations

NIGHT_SCRIPT = """(function () {
  var key = "night-queue:" + location.pathname, sending = false, offset = 0;
  var root = document.getElementById("night");
  if (root && root.dataset.now) offset = Number(root.dataset.now) - Date.now();
  function load() { try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return []; } }
  function save(queue) { localStorage.setItem(key, JSON.stringify(queue)); show(); }
  function show() {
    var note = document.getElementById("offline"), queue = load();
    if (!note) return;
    note.hidden = !queue.length;
    note.textContent = queue.length ? (navigator.onLine ? "Sending: " : "Offline: ") + queue.length +
      " waiting to be sent (" + queue.map(function (a) { return a.label; }).join(", ") + ")." : "";
  }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var ends = document.getElementById("ends");
    if (!ends || !ends.dataset.ends) return;
    var s = Math.max(0, Math.ceil((Date.parse(ends.dataset.ends) - Date.now() - offset) / 1000));
    ends.textContent = Math.floor(s / 60) + ":" + pad(s % 60) + " left";
  }
  function redraw(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
    var main = document.querySelector("main");
    if (fresh && main) main.innerHTML = fresh.innerHTML;
    root = document.getElementById("night");
    show(); tick();
  }
  function flush() {
    var queue = load();
    if (sending || !queue.length) return;
    sending = true;
    var body = new URLSearchParams(queue[0].body);
    fetch(location.pathname, {method: "POST", credentials: "same-origin", body: body})
      .then(function (answer) {
        var date = answer.headers.get("Date");
        if (date) offset = Date.parse(date) + 500 - Date.now();
        return answer.text().then(function (html) {
          save(load().slice(1)); sending = false; redraw(html); flush();
        });
      })
      .catch(function () { sending = false; show(); });
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.querySelector("input[name=action_id]")) return;
    event.preventDefault();
    var data = new FormData(form, event.submitter || undefined), body = [];
    data.forEach(function (value, name) { body.push([name, String(value)]); });
    var label = (event.submitter && event.submitter.textContent || "an action").trim();
    var queue = load(); queue.push({body: body, label: label}); save(queue);
    flush();
  });
  window.addEventListener("online", flush);
  window.addEventListener("offline", show);
  setInterval(flush, 10000);
  setInterval(tick, 1000);
  show(); tick(); flush();
})();"""
