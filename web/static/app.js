// arbiter: live updates for the event pages and the console. Server-sent
// events say what changed; the page fetches the server-rendered HTML again
// (a table's or a game's fragment, or the page itself) and patches the
// document in place, so boards and forms are drawn in one place (the Go
// templates) and the page is never reloaded under the arbiter's hands:
// a control being filled keeps its value, its focus and its caret. Clocks
// tick here between updates.
(function () {
  "use strict";

  var body = document.body;
  var page = body.getAttribute("data-page");
  var arbiterPage = page === "console" || page === "manage";

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
  // Every update the page received, and how many times each part of the
  // page was brought up to date: for people debugging and for tests.
  var seen = (window.arbiterSeen = []);
  var applied = (window.arbiterApplied = { page: 0, table: 0, game: 0 });

  // ---- clocks -------------------------------------------------------
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function clockText(ms) {
    if (ms < 0) ms = 0;
    if (ms < 10000) return "0:" + pad(Math.floor(ms / 1000)) + "." + Math.floor((ms % 1000) / 100);
    var s = Math.floor(ms / 1000);
    if (s >= 3600) return Math.floor(s / 3600) + ":" + pad(Math.floor((s % 3600) / 60)) + ":" + pad(s % 60);
    return Math.floor(s / 60) + ":" + pad(s % 60);
  }
  // armClocks starts counting from what each clock's attributes say; a
  // clock whose attributes did not change keeps counting where it is.
  function armClocks(root) {
    var now = performance.now();
    root.querySelectorAll(".clock").forEach(function (el) {
      var src = el.getAttribute("data-ms") + "/" + el.getAttribute("data-running");
      if (el._src === src) return;
      el._src = src;
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
      var text = clockText(ms);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("low", el._running && ms < 10000);
    });
  }
  armClocks(document);
  setInterval(tick, 100);

  // ---- what the user is doing -----------------------------------------
  // A control the user changed keeps its value through every update until
  // the page is left; so does the one with the focus.
  var touched = new WeakSet();
  function touch(e) { if (isControl(e.target)) touched.add(e.target); }
  document.addEventListener("input", touch, true);
  document.addEventListener("change", touch, true);
  function isControl(n) {
    return n && n.nodeType === 1 && /^(INPUT|SELECT|TEXTAREA)$/.test(n.tagName);
  }
  function held(n) { return isControl(n) && (touched.has(n) || n === document.activeElement); }
  // precious reports whether a node holds something the user is filling:
  // a control changed, or one with the focus.
  function precious(n) {
    if (n.nodeType !== 1) return false;
    var a = document.activeElement;
    if (held(n) || isControl(a) && n.contains(a)) return true;
    var cs = n.querySelectorAll("input,select,textarea");
    for (var i = 0; i < cs.length; i++) if (touched.has(cs[i])) return true;
    return false;
  }

  // ---- patching the document ------------------------------------------
  // keyOf names an element among its siblings, so that an element moved
  // or joined by new ones is matched with itself: by id, by what it shows
  // (an alert, a table, a player, a game, a tournament), a form by where
  // it posts, a control by its name.
  var keyAttrs = ["id", "data-alert", "data-table", "data-player", "data-game", "data-tournament"];
  function keyOf(n) {
    if (n.nodeType !== 1) return null;
    var t = n.tagName, k = null;
    for (var i = 0; i < keyAttrs.length && !k; i++) k = n.getAttribute(keyAttrs[i]);
    if (!k && t === "FORM") k = n.getAttribute("action");
    if (!k && (isControl(n) || t === "BUTTON") && n.getAttribute("name")) {
      k = n.getAttribute("name");
      if (n.type === "checkbox" || n.type === "radio") k += "=" + n.getAttribute("value");
    }
    return k ? t + " " + k : null;
  }

  function syncAttrs(old, fresh) {
    var keepValue = held(old);
    var i, a;
    for (i = old.attributes.length - 1; i >= 0; i--) {
      a = old.attributes[i].name;
      if (fresh.hasAttribute(a) || kept(old, a, keepValue)) continue;
      old.removeAttribute(a);
    }
    for (i = 0; i < fresh.attributes.length; i++) {
      a = fresh.attributes[i];
      if (kept(old, a.name, keepValue)) continue;
      if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
    }
  }
  // kept says which attributes are the user's or the page's own: a
  // details' open state, a held control's value, a form being sent.
  function kept(el, name, keepValue) {
    if (name === "open" && el.tagName === "DETAILS") return true;
    if (name === "aria-busy" && el.tagName === "FORM") return true; // being sent
    if (keepValue && (name === "value" || name === "checked")) return true;
    return false;
  }

  // morph makes old look like fresh, keeping the nodes that stay and what
  // the user is doing in them; it returns the node now in old's place.
  function morph(old, fresh) {
    if (old.nodeType !== fresh.nodeType || old.nodeName !== fresh.nodeName) {
      var n = document.importNode(fresh, true);
      old.parentNode.replaceChild(n, old);
      return n;
    }
    if (old.nodeType !== 1) {
      if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
      return old;
    }
    if (old.classList.contains("stale")) unstale(old);
    syncAttrs(old, fresh);
    if (old.tagName === "TEXTAREA") {
      if (old.defaultValue !== fresh.defaultValue) {
        var v = old.value, keep = held(old);
        old.defaultValue = fresh.defaultValue;
        if (keep) old.value = v;
      }
      return old;
    }
    var choice = old.tagName === "SELECT" && held(old) ? old.value : null;
    morphChildren(old, fresh);
    if (choice !== null && old.value !== choice) {
      old.value = choice;
      if (old.value !== choice) stale(old); // the choice is no longer offered
    }
    return old;
  }

  // ours reports whether a node is the page's own (a message it shows),
  // which no update takes away.
  function ours(n) { return n.nodeType === 1 && n.hasAttribute("data-keep"); }

  // morphChildren matches fresh's children with old's: by key, else by
  // position among the children without one, and patches each match;
  // what old has beyond goes, but for what the user is filling.
  function morphChildren(old, fresh) {
    var pool = {}, wanted = {};
    var c, k, i;
    for (c = old.firstChild; c; c = c.nextSibling) {
      k = keyOf(c);
      if (k) (pool[k] = pool[k] || []).push(c);
    }
    var kids = Array.prototype.slice.call(fresh.childNodes);
    kids.forEach(function (n) { var k = keyOf(n); if (k) wanted[k] = (wanted[k] || 0) + 1; });
    var used = new Set();
    var cursor = old.firstChild;
    for (i = 0; i < kids.length; i++) {
      var n = kids[i], m = null;
      while (cursor && used.has(cursor)) cursor = cursor.nextSibling;
      k = keyOf(n);
      if (k) {
        wanted[k]--;
        var list = pool[k];
        while (list && list.length && !m) {
          c = list.shift();
          if (!used.has(c)) m = c;
        }
      } else {
        // The next old child without a key, if it is of the same kind.
        for (c = cursor; c && (used.has(c) || keyOf(c)); ) c = c.nextSibling;
        if (c && c.nodeType === n.nodeType && c.nodeName === n.nodeName) m = c;
      }
      if (!m) {
        var added = document.importNode(n, true);
        used.add(added);
        old.insertBefore(added, cursor);
        continue;
      }
      if (m !== cursor) {
        // What lies between goes, unless it is wanted further on (then
        // the match moves) or the user is filling it (it stays): a match
        // that does not move keeps its focus.
        var block = null;
        for (c = cursor; c && c !== m; ) {
          var next = c.nextSibling, ck = keyOf(c);
          if (!used.has(c) && !ours(c)) {
            if (ck && wanted[ck] > 0) { block = c; break; }
            if (!precious(c)) old.removeChild(c);
          }
          c = next;
        }
        if (block) old.insertBefore(m, block);
      }
      used.add(m);
      cursor = m.nextSibling;
      morph(m, n);
    }
    for (c = old.firstChild; c; ) {
      var after = c.nextSibling;
      if (!used.has(c) && !ours(c)) {
        if (precious(c)) stale(c);
        else old.removeChild(c);
      }
      c = after;
    }
  }

  // stale marks what the user is filling that the page no longer shows
  // (the game it acts on ended, the alert was resolved): it stays where
  // it was, saying so, until it is sent or put away.
  function stale(n) {
    var el = n.nodeType === 1 ? n : null;
    if (!el || el.classList.contains("stale")) return;
    if (el.tagName === "SELECT") el = el.closest("form") || el.parentNode;
    if (!el || el.classList.contains("stale")) return;
    el.classList.add("stale");
    if (/^(TR|TD|TH|TBODY|TABLE|OL|UL|LI|LABEL)$/.test(el.tagName)) return;
    var note = document.createElement("p");
    note.className = "stale-note";
    note.setAttribute("role", "status");
    note.appendChild(document.createTextNode("No longer current: what this acts on has changed since you began. Send it only if it still applies. "));
    var drop = document.createElement("button");
    drop.type = "button";
    drop.textContent = "Put it away";
    drop.addEventListener("click", function () { if (el.parentNode) el.parentNode.removeChild(el); });
    note.appendChild(drop);
    el.insertBefore(note, el.firstChild);
  }
  function unstale(el) {
    el.classList.remove("stale");
    var note = el.querySelector(":scope > .stale-note");
    if (note) el.removeChild(note);
  }

  // ---- fetching what changed --------------------------------------------
  var pending = {};
  var notice = null;
  // tell shows (or, with "", hides) a line saying why the page could not
  // be brought up to date.
  function tell(text) {
    if (!notice) {
      if (!text) return;
      notice = said("news", "news");
    }
    notice.textContent = text;
    notice.hidden = !text;
  }
  // said returns the line of the page's own messages with the id, made
  // at the top of the page the first time; updates leave it alone.
  function said(id, cls) {
    var p = document.getElementById(id);
    if (!p) {
      p = document.createElement("p");
      p.id = id;
      p.className = cls;
      p.setAttribute("role", "status");
      p.setAttribute("data-keep", "");
      var main = document.querySelector("main");
      main.insertBefore(p, main.firstChild);
    }
    return p;
  }
  // refresh fetches url and patches the node find returns with the part
  // of the answer pick returns; one fetch per key at a time, and one more
  // if news came meanwhile.
  function refresh(key, url, find, pick, after) {
    if (pending[key]) { pending[key].again = true; return; }
    pending[key] = { again: false };
    fetch(url, { headers: { Accept: "text/html" }, cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) return Promise.reject(new Error("the server answered " + r.status));
        if (r.redirected && new URL(r.url).pathname !== new URL(url, location.href).pathname) {
          return Promise.reject(new Error("the server sent another page (logged out?)"));
        }
        return r.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = pick(doc);
        if (!fresh) throw new Error("the server sent another page");
        var node = find();
        if (!node || !node.parentNode) return;
        var now = morph(node, fresh);
        armClocks(now);
        tick();
        if (after) after(now);
      })
      .catch(function (err) {
        if (key === "page") tell("This page could not be brought up to date: " + err.message + ". It tries again with the next news.");
      })
      .then(function () {
        var again = pending[key] && pending[key].again;
        delete pending[key];
        if (again) refresh(key, url, find, pick, after);
      });
  }
  function firstElement(doc) { return doc.body.firstElementChild; }

  function tableNode(id) {
    return document.querySelector('.table-card[data-table="' + CSS.escape(id) + '"]');
  }
  function refreshTable(id) {
    if (!tableNode(id)) return;
    refresh("table:" + id, "/fragment/table/" + encodeURIComponent(id),
      function () { return tableNode(id); }, firstElement, function () { applied.table++; });
  }
  function refreshAllTables() {
    document.querySelectorAll(".table-card[data-table]").forEach(function (n) {
      refreshTable(n.getAttribute("data-table"));
    });
  }
  // refreshPage brings the page's main part up to date from the page
  // itself, as the server would draw it now.
  function refreshPage() {
    refresh("page", location.pathname + location.search,
      function () { return document.querySelector("main"); },
      function (doc) {
        if (doc.body.getAttribute("data-page") !== page) return null;
        return doc.querySelector("main");
      },
      function () { tell(""); applied.page++; });
  }

  // ---- the console's forms -----------------------------------------------
  // An arbiter's form is sent from the page, which stays: the answer is
  // shown at the top (or, for a refusal, in the form, with everything
  // typed kept), and the page is brought up to date. Other forms being
  // filled are not lost to the answer's page. Without the script the
  // form posts as usual.
  var sent = (window.arbiterSent = { answers: 0 });
  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (!arbiterPage || !f.matches || !f.matches("form.act") || f.getAttribute("method") !== "post") return;
    e.preventDefault();
    if (f.getAttribute("aria-busy") === "true") return;
    send(f, e.submitter);
  });
  function send(f, submitter) {
    var data = new URLSearchParams(new FormData(f, submitter || null));
    // The buttons wait for the answer (those not already disabled).
    var buttons = Array.prototype.filter.call(f.querySelectorAll("button[type=submit]"), function (b) { return !b.disabled; });
    var done = false;
    f.setAttribute("aria-busy", "true");
    buttons.forEach(function (b) { b.disabled = true; });
    fetch(f.getAttribute("action"), {
      method: "POST", body: data, credentials: "same-origin",
      headers: { Accept: "application/json" }
    })
      .then(function (r) {
        return r.json().then(function (j) { return { ok: r.ok, j: j }; },
          function () { return { ok: false, j: { error: "the server answered " + r.status } }; });
      })
      .then(function (a) {
        if (!a.ok || !a.j.ok) throw new Error(a.j.error || "refused");
        refusal(f, "");
        f.querySelectorAll("input,select,textarea").forEach(function (c) { touched.delete(c); });
        if (f.contains(document.activeElement)) document.activeElement.blur();
        f.reset();
        unstale(f);
        said("sent", "done").textContent = a.j.done;
        done = true;
      })
      .catch(function (err) { refusal(f, err.message); })
      .then(function () {
        f.removeAttribute("aria-busy");
        buttons.forEach(function (b) { b.disabled = false; });
        sent.answers++;
        if (done) refreshPage();
      });
  }
  // refusal shows (or, with "", takes away) why a form was refused.
  function refusal(f, text) {
    var p = f.querySelector(":scope > .error");
    if (!text) { if (p) f.removeChild(p); return; }
    if (!p) {
      p = document.createElement("p");
      p.className = "error";
      p.setAttribute("role", "alert");
      p.setAttribute("data-keep", "");
      f.insertBefore(p, f.firstChild);
    }
    p.textContent = text;
  }

  // ---- the game viewer ------------------------------------------------
  var game = document.getElementById("game");
  var chosenPly = null; // null: follow the game
  // refreshGame redraws the viewer; focusKey, when given, is the step
  // link to give the focus to once the new body is in.
  function refreshGame(focusKey) {
    if (!game) return;
    var id = game.getAttribute("data-game");
    var url = "/fragment/game/" + encodeURIComponent(id) + (chosenPly === null ? "" : "?ply=" + chosenPly);
    refresh("game:" + id, url, function () { return game.querySelector(".game-body"); }, firstElement, function (now) {
      applied.game++;
      var back = focusKey && now.querySelector('a[data-key="' + focusKey + '"]');
      if (back && document.activeElement !== back) back.focus();
    });
  }
  if (game) {
    game.addEventListener("click", function (e) {
      var a = e.target.closest && e.target.closest("a[data-ply]");
      if (!a || !game.contains(a)) return;
      e.preventDefault();
      var v = a.getAttribute("data-ply");
      chosenPly = v === "" ? null : parseInt(v, 10);
      refreshGame(a.getAttribute("data-key"));
    });
  }
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

  // catchUp brings everything on the page up to date.
  function catchUp() {
    if (page !== "game" && page !== "live") refreshPage();
    refreshAllTables();
    if (game && chosenPly === null) refreshGame();
  }

  // Clocks and boards are re-read now and then even without news, so a
  // page left open never drifts from the tables.
  setInterval(function () {
    refreshAllTables();
    if (game && chosenPly === null) refreshGame();
  }, 30000);

  // ---- the stream -----------------------------------------------------
  // The stream is closed when the page is left: a page kept in the
  // back-forward cache must not hold a connection, or after a few pages
  // the browser has none left for the site (six per host). It opens again
  // if the page is shown from the cache, and the page catches up.
  if (!window.EventSource) return;
  var src = null;
  var handlers = [];
  function connect() {
    var opened = false;
    src = new EventSource(arbiterPage ? "/console/events" : "/events");
    src.onopen = function () {
      if (status) status.classList.add("on");
      // After a break the stream starts from now: what came meanwhile
      // is read from the pages.
      if (opened) catchUp();
      opened = true;
    };
    src.onerror = function () { if (status) status.classList.remove("on"); };
    handlers.forEach(function (h) { src.addEventListener(h[0], h[1]); });
  }
  function on(kind, f) {
    handlers.push([kind, function (e) {
      var u = {};
      try { u = JSON.parse(e.data); } catch (err) { /* an event without data */ }
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
    catchUp();
  });

  // What each page shows of each kind of news: the boards follow every
  // move; the console redraws its forms when a question, a result, an
  // offer or an alert comes or a board comes and goes; the tournament's
  // pages follow results, rounds and entries.
  var pageNews = {
    console: ["prompt", "result", "offer", "alert", "board", "started", "round", "players"],
    manage: ["result", "alert", "round", "players"],
    event: ["result", "round", "players"],
    tournament: ["result", "round", "players"],
    standings: ["result", "round", "players"],
    crosstable: ["result", "round", "players"],
    player: ["result", "round", "players"]
  };
  function changed(u) {
    if ((pageNews[page] || []).indexOf(u.kind) >= 0) refreshPage();
    if (u.table) refreshTable(u.table); else if (u.kind !== "alert" && u.kind !== "players") refreshAllTables();
    if (game && u.game && String(u.game) === game.getAttribute("data-game")) refreshGame();
  }
  ["move", "result", "prompt", "board", "clock", "offer", "started", "alert", "round", "players"].forEach(function (k) { on(k, changed); });
  // A stream that fell too far behind is told to catch up; it reconnects
  // by itself.
  on("reload", catchUp);
  connect();
})();
