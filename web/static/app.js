// arbiter: live updates for the event pages. Server-sent events say what
// changed; the page fetches the server-rendered fragment again, so boards
// are drawn in one place (the Go templates). Clocks tick here between
// updates.
(function () {
  "use strict";

  var body = document.body;
  var page = body.getAttribute("data-page");

  // Kanji need a Japanese font: without one they would show as boxes, so
  // the pieces' letters are shown instead. A missing glyph measures like
  // an unassigned code point.
  try {
    var cx = document.createElement("canvas").getContext("2d");
    cx.font = "32px sans-serif";
    if (cx.measureText("\u6B69").width === cx.measureText("\uFFFF").width) {
      document.documentElement.classList.add("no-cjk");
    }
  } catch (e) { /* no canvas: keep the glyphs */ }
  var status = document.getElementById("status");
  // Every update the page applied, for people debugging and for tests.
  var seen = (window.arbiterSeen = []);

  // ---- clocks -------------------------------------------------------
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function clockText(ms) {
    if (ms < 0) ms = 0;
    if (ms < 10000) return "0:" + pad(Math.floor(ms / 1000)) + "." + Math.floor((ms % 1000) / 100);
    var s = Math.floor(ms / 1000);
    if (s >= 3600) return Math.floor(s / 3600) + ":" + pad(Math.floor((s % 3600) / 60)) + ":" + pad(s % 60);
    return Math.floor(s / 60) + ":" + pad(s % 60);
  }
  function armClocks(root) {
    var now = performance.now();
    root.querySelectorAll(".clock").forEach(function (el) {
      el._base = parseInt(el.getAttribute("data-ms"), 10) || 0;
      el._t0 = now;
      el._running = el.getAttribute("data-running") === "true";
    });
  }
  function tick() {
    var now = performance.now();
    document.querySelectorAll(".clock").forEach(function (el) {
      if (el._base === undefined) return;
      var ms = el._running ? el._base - (now - el._t0) : el._base;
      el.textContent = clockText(ms);
      el.classList.toggle("low", el._running && ms < 10000);
    });
  }
  armClocks(document);
  setInterval(tick, 100);

  // ---- fragments ----------------------------------------------------
  var pending = {};
  function refresh(key, url, node, after) {
    if (pending[key]) { pending[key].again = true; return; }
    pending[key] = { again: false };
    fetch(url, { headers: { Accept: "text/html" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var box = document.createElement("div");
        box.innerHTML = html;
        var fresh = box.firstElementChild;
        if (fresh && node.parentNode) {
          node.parentNode.replaceChild(fresh, node);
          armClocks(fresh);
          tick();
          if (after) after(fresh);
        }
      })
      .catch(function () {})
      .then(function () {
        var again = pending[key] && pending[key].again;
        delete pending[key];
        if (again) {
          var n = find(key);
          if (n) refresh(key, url, n, after);
        }
      });
  }
  function find(key) {
    var parts = key.split(":");
    if (parts[0] === "table") return document.querySelector('.table-card[data-table="' + CSS.escape(parts[1]) + '"]');
    if (parts[0] === "game") return document.querySelector(".game-body");
    return null;
  }
  function refreshTable(id) {
    var node = find("table:" + id);
    if (node) refresh("table:" + id, "/fragment/table/" + encodeURIComponent(id), node);
  }
  function refreshAllTables() {
    document.querySelectorAll(".table-card[data-table]").forEach(function (n) {
      refreshTable(n.getAttribute("data-table"));
    });
  }

  // ---- the game viewer ------------------------------------------------
  var game = document.getElementById("game");
  var chosenPly = null; // null: follow the game
  // refreshGame redraws the viewer; focusKey, when given, is the step
  // link to give the focus back to once the new body is in.
  function refreshGame(focusKey) {
    var node = find("game");
    if (!node) return;
    var id = game.getAttribute("data-game");
    var url = "/fragment/game/" + encodeURIComponent(id) + (chosenPly === null ? "" : "?ply=" + chosenPly);
    refresh("game:" + id, url, node, function (fresh) {
      bindViewer(fresh);
      var back = focusKey && fresh.querySelector('a[data-key="' + focusKey + '"]');
      if (back) back.focus();
    });
  }
  function bindViewer(root) {
    root.querySelectorAll("a[data-ply]").forEach(function (a) {
      a.addEventListener("click", function (e) {
        e.preventDefault();
        var v = a.getAttribute("data-ply");
        chosenPly = v === "" ? null : parseInt(v, 10);
        refreshGame(a.getAttribute("data-key"));
      });
    });
  }
  if (game) bindViewer(game);
  // The keyboard steps through the game: arrow keys, Home and End press
  // the viewer's links (aria-keyshortcuts), wherever the focus is, except
  // in a field being typed into.
  document.addEventListener("keydown", function (e) {
    if (!game || e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var a = game.querySelector('a[data-key="' + e.key + '"]');
    if (!a) return;
    e.preventDefault();
    a.click();
  });

  // ---- the console ----------------------------------------------------
  function consoleNews() {
    var busy = Array.prototype.some.call(document.querySelectorAll("form.act input[name=why]"), function (i) {
      return i.value !== "";
    });
    if (busy) {
      var n = document.getElementById("news");
      if (n) n.hidden = false;
    } else {
      location.reload();
    }
  }

  // Clocks and boards are re-read now and then even without news, so a
  // page left open never drifts from the tables.
  if (page !== "console") {
    setInterval(function () {
      refreshAllTables();
      if (game && chosenPly === null) refreshGame();
    }, 30000);
  }

  // ---- the stream -----------------------------------------------------
  // The stream is closed when the page is left: a page kept in the
  // back-forward cache must not hold a connection, or after a few pages
  // the browser has none left for the site (six per host). It opens again
  // if the page is shown from the cache, and the page catches up.
  if (!window.EventSource) return;
  var src = null;
  var handlers = [];
  function connect() {
    src = new EventSource(page === "console" ? "/console/events" : "/events");
    src.onopen = function () { if (status) status.classList.add("on"); };
    src.onerror = function () { if (status) status.classList.remove("on"); };
    handlers.forEach(function (h) { src.addEventListener(h[0], h[1]); });
  }
  function on(kind, f) {
    handlers.push([kind, function (e) {
      var u = {};
      try { u = JSON.parse(e.data); } catch (err) {}
      seen.push({ kind: kind, table: u.table, game: u.game });
      f(u);
    }]);
  }
  window.addEventListener("pagehide", function () {
    if (src) { src.close(); src = null; }
    if (status) status.classList.remove("on");
  });
  window.addEventListener("pageshow", function (e) {
    if (!e.persisted || src) return;
    connect();
    refreshAllTables();
    if (game && chosenPly === null) refreshGame();
  });
  function changed(u) {
    // The console redraws its forms when a question or a result comes;
    // moves only redraw the boards.
    if (page === "console" && (u.kind === "prompt" || u.kind === "result")) { consoleNews(); return; }
    if (u.table) refreshTable(u.table); else refreshAllTables();
    if (game && u.game && String(u.game) === game.getAttribute("data-game")) refreshGame();
    if (u.kind === "result" && (page === "tournament" || page === "standings" || page === "crosstable")) location.reload();
  }
  ["move", "result", "prompt", "board", "clock"].forEach(function (k) { on(k, changed); });
  on("alert", function (u) { if (page === "console") consoleNews(); });
  on("round", function () {
    if (page === "console" || page === "tournament" || page === "standings" || page === "crosstable") location.reload();
    else refreshAllTables();
  });
  on("reload", function () { location.reload(); });
  connect();
})();
