"""The console night page's one script (R22), allowed by its hash: the forms are sent in the
background (each carries its action id and the night's sequence, so a retry applies once); what
cannot be sent while the phone is offline waits in the phone's storage, shown as waiting, and is
sent, in order, when the phone is back. The page is redrawn from each answer, keeping what the
host is typing meanwhile (but in the form just applied); once an answer is in, refused or not,
nothing it sent is shown as waiting. It counts the level down from the server's time (the page's
`data-now`, then each answer's `Date`)."""

from __future__ import annotations

NIGHT_SCRIPT = """(function () {
  var key = "night-queue:" + location.pathname, sending = false, offset = 0, applied = null;
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
    var left = document.getElementById("left");
    if (!left || !left.dataset.ends) return;
    var s = Math.max(0, Math.ceil((Date.parse(left.dataset.ends) - Date.now() - offset) / 1000));
    left.textContent = Math.floor(s / 60) + ":" + pad(s % 60);
  }
  function current() { return root ? Number(root.dataset.sequence) : null; }
  function kindOf(field) {
    var kind = field.form && field.form.querySelector("input[name=type]");
    return kind ? kind.value : "";
  }
  // What the host is typing survives a redraw (an answer to what was sent before it), but for
  // the form of the action just applied, which starts again empty.
  function typed(done) {
    var kept = {}, main = document.querySelector("main");
    if (!main) return kept;
    main.querySelectorAll("input[id], textarea[id], select[id]").forEach(function (field) {
      if (field.type === "hidden" || kindOf(field) === done) return;
      var changed = field.type === "checkbox" ? field.checked !== field.defaultChecked :
        field.value !== field.defaultValue;
      if (changed) kept[field.id] = field.type === "checkbox" ? field.checked : field.value;
    });
    var active = document.activeElement;
    return {values: kept, focus: active && active.id && kindOf(active) !== done ? active.id : null};
  }
  function retype(kept) {
    Object.keys(kept.values || {}).forEach(function (id) {
      var field = document.getElementById(id);
      if (!field) return;
      if (field.type === "checkbox") field.checked = kept.values[id]; else field.value = kept.values[id];
    });
    var focus = kept.focus && document.getElementById(kept.focus);
    if (focus) focus.focus();
  }
  function redraw(html, done) {
    var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main");
    var main = document.querySelector("main"), kept = typed(done);
    if (fresh && main) main.innerHTML = fresh.innerHTML;
    root = document.getElementById("night");
    retype(kept);
    show(); tick();
  }
  function fresh() {
    return (window.crypto && crypto.randomUUID) ? crypto.randomUUID() :
      Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  function flush() {
    var queue = load();
    if (sending || !queue.length) return;
    sending = true;
    var item = queue[0], body = new URLSearchParams(item.body);
    // Made on the same page as the phone's own action just applied: it follows that action.
    if (applied !== null && item.madeOn === applied.madeOn) body.set("sequence", String(applied.now));
    fetch(location.pathname, {method: "POST", credentials: "same-origin", body: body})
      .then(function (answer) {
        var date = answer.headers.get("Date");
        if (date) offset = Date.parse(date) + 500 - Date.now();
        return answer.text().then(function (html) {
          redraw(html, answer.ok ? body.get("type") : null);
          var rest = load().slice(1), dropped = [];
          if (answer.ok) {
            applied = {madeOn: item.madeOn, now: current()};
          } else {
            // Refused (the page says why): what waited after it was made on a night that did
            // not happen, so it is not sent either. Say so.
            dropped = rest; rest = [];
          }
          localStorage.setItem(key, JSON.stringify(rest)); sending = false;
          show();  // never "waiting to be sent" once nothing is
          if (dropped.length) {
            var note = document.getElementById("offline");
            if (note) { note.hidden = false; note.textContent = "Not sent, redo if still needed: " +
              dropped.map(function (a) { return a.label; }).join(", ") + "."; }
          }
          if (rest.length) flush();
        });
      })
      .catch(function () { sending = false; show(); });
  }
  document.addEventListener("submit", function (event) {
    var form = event.target, id = form.querySelector("input[name=action_id]");
    if (!id) return;
    event.preventDefault();
    id.value = fresh();  // each press is one action: a retry of it keeps this id
    var data = new FormData(form, event.submitter || undefined), body = [];
    data.forEach(function (value, name) { body.push([name, String(value)]); });
    var label = (event.submitter && event.submitter.textContent || "an action").trim();
    var queue = load(); queue.push({body: body, label: label, madeOn: current()}); save(queue);
    flush();
  });
  window.addEventListener("online", flush);
  window.addEventListener("offline", show);
  setInterval(flush, 10000);
  setInterval(tick, 1000);
  show(); tick(); flush();
})();"""
