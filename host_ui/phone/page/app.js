// Banquier's phone page: the game's public state, kept up to date by the server's events. No framework, nothing
// loaded from elsewhere; every word comes from the server (the terminal's catalogs), in the language chosen.
"use strict";
(function () {
  var LANGS = ["fr", "en", "uk"];
  var store = {
    get: function (k) { try { return window.localStorage.getItem(k); } catch (e) { return null; } },
    set: function (k, v) { try { window.localStorage.setItem(k, v); } catch (e) { /* private mode */ } }
  };
  var chosen = store.get("banquier-lang");
  var lang = LANGS.indexOf(chosen) >= 0 ? chosen : null;
  var me = store.get("banquier-me") || "";
  var doc = null, version = -1, lastSeq = null, loading = false, again = false, source = null, retry = null;
  // the connection's health: the server sends an event at least every keepAlive seconds (its "hello" says how
  // often); none for 2.5 of them and the page says it is offline and reconnects. ended: "replaced" (a new link)
  // or "off" (switched off at the terminal): the balances shown are no longer current.
  var keepAlive = 15, lastMessage = Date.now(), ended = null, endedPoll = null;
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "text") node.textContent = attrs[k];
        else if (k === "cls") node.className = attrs[k];
        else if (k === "style") Object.keys(attrs.style).forEach(function (p) { node.style.setProperty(p, attrs.style[p]); });
        else node.setAttribute(k, attrs[k]);
      });
    }
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function w(key) { return (doc && doc.words && doc.words[key]) || key; }

  function setStatus(live) {
    if (ended) return;
    var s = $("status");
    s.textContent = live ? w("live") : w("offline");
    s.className = live ? "status" : "status offline";
    $("main").classList.toggle("stale", !live);
  }

  function heard() { lastMessage = Date.now(); }

  // the link was replaced or the page switched off: say so, grey the balances, stop listening; look again now
  // and then (a page switched on again comes back by itself, a replaced link never does)
  function end(reason) {
    if (source) { source.close(); source = null; }
    if (retry) { window.clearTimeout(retry); retry = null; }
    ended = reason === "off" ? "off" : "replaced";
    var s = $("status");
    s.textContent = ended === "off" ? w("switched_off_short") : w("replaced_short");
    s.className = "status offline ended";
    var banner = $("ended");
    banner.textContent = ended === "off" ? w("switched_off") : w("replaced");
    banner.hidden = false;
    $("main").classList.add("stale");
    if (!endedPoll) endedPoll = window.setInterval(function () {
      fetch("state.json", { cache: "no-store", credentials: "omit" }).then(function (r) {
        if (r.ok) resume();
      }).catch(function () { /* still off */ });
    }, 10000);
  }

  function resume() {
    if (endedPoll) { window.clearInterval(endedPoll); endedPoll = null; }
    ended = null;
    $("ended").hidden = true;
    load();
    connect();
  }

  // a closed stream or a failed load: a 404 is a link that was replaced (or a page switched off and on with a
  // new token), anything else a lost connection
  function checkGone() {
    fetch("state.json", { cache: "no-store", credentials: "omit" }).then(function (r) {
      if (r.status === 404) end("replaced");
    }).catch(function () { /* unreachable: reconnecting */ });
  }

  function load() {
    if (loading) { again = true; return; }
    loading = true;
    var url = "state.json" + (lang ? "?lang=" + lang : "");
    fetch(url, { cache: "no-store", credentials: "omit" }).then(function (r) {
      if (r.status === 404) { end("replaced"); throw new Error("HTTP 404"); }
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (d) {
      doc = d; version = d.version;
      if (!lang) lang = d.language;
      if (!ended) render();
    }).catch(function () { setStatus(false); }).then(function () {
      loading = false;
      if (again) { again = false; load(); }
    });
  }

  function connect() {
    if (source) source.close();
    if (ended) return;
    if (!window.EventSource) { window.setInterval(load, 2000); return; }
    heard();
    var mine = source = new EventSource("events");
    mine.addEventListener("hello", function (e) {
      heard();
      var n = parseFloat(e.data);
      if (n > 0) keepAlive = n;
    });
    mine.addEventListener("alive", function () { heard(); setStatus(true); });
    mine.addEventListener("state", function (e) {
      heard();
      setStatus(true);
      if (String(version) !== e.data) load();
    });
    mine.addEventListener("end", function (e) { end(e.data); });
    mine.onopen = function () { heard(); setStatus(true); load(); };
    mine.onerror = function () {
      if (mine !== source) return;
      setStatus(false);
      if (mine.readyState === 2 && !retry) {  // closed for good (the server refused): why, then again later
        checkGone();
        retry = window.setTimeout(function () { retry = null; connect(); }, 5000);
      }
    };
  }

  // a server that hangs sends nothing and closes nothing: its silence is the sign
  function watchdog() {
    if (ended || !source) return;
    if (Date.now() - lastMessage > Math.max(2500 * keepAlive, keepAlive * 1000 + 3000)) {
      setStatus(false);
      heard();  // the next look is a whole period later: the new stream's time to answer
      connect();
    }
  }

  function deedItem(d) {
    var parts = [el("span", { cls: "name", text: d.name })];
    if (d.level !== null && d.level !== undefined) {
      parts.push(el("span", { cls: "b", text: w("level") + " " + d.level }));
    } else if (d.hotel) {
      parts.push(el("span", { cls: "b hotel", text: w("hotel") }));
    } else if (d.houses > 0) {
      parts.push(el("span", { cls: "b", text: "⌂×" + d.houses, title: w("houses") + ": " + d.houses,
                               "aria-label": w("houses") + ": " + d.houses }));
    }
    if (d.mortgaged) parts.push(el("span", { cls: "tag", text: w("mortgaged") }));
    return el("li", { cls: "deed" + (d.mortgaged ? " mortgaged" : ""), style: { "--group": d.colour } }, parts);
  }

  function playerCard(p) {
    var rows = [
      el("tr", {}, [el("th", { scope: "row", text: w("cash") }), el("td", { text: p.cash_text })]),
      el("tr", {}, [el("th", { scope: "row", text: w("worth") }), el("td", { text: p.worth_text })])
    ];
    p.debts.forEach(function (debt) {
      rows.push(el("tr", { cls: "debt" }, [el("th", { scope: "row", text: w("debts") }), el("td", { text: debt.text })]));
    });
    var tags = [];
    if (p.name === me) tags.push(el("span", { cls: "tag", text: w("me") }));
    if (p.bankrupt) tags.push(el("span", { cls: "tag", text: w("bankrupt") }));
    if (p.jail_cards > 0) tags.push(el("span", { cls: "tag", text: w("jail_cards") + ": " + p.jail_cards }));
    var deeds = p.deeds.length
      ? el("ul", { cls: "deeds", "aria-label": w("deeds") }, p.deeds.map(deedItem))
      : el("p", { cls: "none", text: w("no_deeds") });
    return el("article", { cls: "player" + (p.name === me ? " me" : "") + (p.bankrupt ? " bankrupt" : ""),
                           style: { "--seat": p.colour }, "data-player": p.name }, [
      el("h3", {}, [el("span", { text: p.name })].concat(tags)),
      el("table", { cls: "money" }, [el("tbody", {}, rows)]),
      el("h4", { cls: "visually-hidden", text: w("deeds") }),
      deeds
    ]);
  }

  function chart(c, players) {
    var box = $("chart");
    clear(box);
    if (!c || !c.points || !c.points.length) return;
    // drawn at the box's own width, so that the axis' words keep their size on a phone
    var W = Math.max(280, Math.round(box.clientWidth || 640));
    var NS = "http://www.w3.org/2000/svg", H = Math.max(170, Math.min(320, Math.round(W * 0.4))), L = 74, R = 8,
        T = 10, B = 12;
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", w("chart"));
    var span = Math.max(c.top - c.bottom, 1), n = Math.max(c.length - 1, 1);
    function y(v) { return T + (H - T - B) * (1 - (v - c.bottom) / span); }
    function x(i) { return L + (W - L - R) * i / n; }
    [0, 0.5, 1].forEach(function (f, k) {
      var yy = T + (H - T - B) * (1 - f);
      var line = document.createElementNS(NS, "line");
      line.setAttribute("x1", L); line.setAttribute("x2", W - R); line.setAttribute("y1", yy); line.setAttribute("y2", yy);
      line.setAttribute("class", "grid");
      svg.appendChild(line);
      var t = document.createElementNS(NS, "text");
      t.setAttribute("x", L - 6); t.setAttribute("y", yy + 4); t.setAttribute("text-anchor", "end");
      t.setAttribute("class", "axis"); t.textContent = c.labels[k];
      t.setAttribute("font-size", "12");
      svg.appendChild(t);
    });
    players.forEach(function (p) {
      var pts = c.points.map(function (row, i) { return x(c.positions[i]).toFixed(1) + "," + y(row[p.name] || 0).toFixed(1); });
      if (pts.length === 1) pts.push((W - R) + "," + pts[0].split(",")[1]);
      var line = document.createElementNS(NS, "polyline");
      line.setAttribute("points", pts.join(" "));
      line.setAttribute("fill", "none"); line.setAttribute("stroke", p.colour); line.setAttribute("stroke-width", "2.5");
      line.setAttribute("stroke-linejoin", "round");
      svg.appendChild(line);
    });
    box.appendChild(svg);
    box.appendChild(el("ul", { cls: "legend" }, players.map(function (p) {
      return el("li", { style: { "--seat": p.colour }, text: p.name + " " + p.worth_text });
    })));
  }

  function clock(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
    return (h ? h + ":" + (m < 10 ? "0" : "") : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }

  function render() {
    document.documentElement.lang = doc.language;
    document.title = w("title");
    $("title").textContent = w("title");
    if (ended) { $("ended").textContent = ended === "off" ? w("switched_off") : w("replaced"); }
    $("me-label").textContent = w("me");
    $("language-label").textContent = w("language");
    $("players-title").textContent = w("players");
    $("standings-title").textContent = w("standings");
    $("last-title").textContent = w("last");
    $("chart-title").textContent = w("chart");
    $("language").value = doc.language;
    setStatus(true);
    var banner = $("banner"), summary = $("summary");
    clear(summary);
    if (!doc.game) {
      $("game").textContent = "";
      banner.hidden = false; banner.textContent = w("no_game");
      clear($("players")); clear($("last")); clear($("chart")); $("standings-section").hidden = true;
      fillMe([]);
      return;
    }
    $("game").textContent = doc.edition + " · " + doc.game;
    banner.hidden = !doc.over;
    banner.textContent = doc.over ? w("over") : "";
    if (doc.pot) summary.appendChild(el("p", { cls: "pill" }, [document.createTextNode(w("pot") + " "), el("strong", { text: doc.pot.text })]));
    if (doc.time) {
      var left = doc.time.left_s === null || doc.time.left_s === undefined ? w("no_limit") : clock(doc.time.left_s);
      summary.appendChild(el("p", { cls: "pill" }, [document.createTextNode(w("time_left") + " "), el("strong", { text: left })]));
    }
    var players = doc.players.slice();
    fillMe(players);
    players.sort(function (a, b) { return (b.name === me) - (a.name === me) || a.seat - b.seat; });
    var box = $("players");
    clear(box);
    players.forEach(function (p) { box.appendChild(playerCard(p)); });
    var st = $("standings");
    clear(st);
    $("standings-section").hidden = !doc.over;
    var byName = {};
    doc.players.forEach(function (p) { byName[p.name] = p; });
    doc.standings.forEach(function (name) {
      st.appendChild(el("li", { text: name + " — " + (byName[name] ? byName[name].worth_text : "") }));
    });
    var last = $("last");
    clear(last);
    if (!doc.last.length) last.appendChild(el("li", { text: w("no_operations") }));
    doc.last.forEach(function (op) {
      last.appendChild(el("li", { cls: op.undone ? "undone" : "", "data-seq": op.seq }, [
        el("div", { cls: "what" }, [el("span", { cls: "seq", text: "#" + op.seq }), document.createTextNode(op.text)]),
        op.moves.length ? el("div", { cls: "moves", text: op.moves.join(" · ") }) : null,
        op.balances ? el("div", { cls: "after", text: op.balances }) : null
      ]));
    });
    var newest = doc.last.length ? doc.last[0] : null;
    var key = doc.game + "#" + (newest ? newest.seq : 0);
    if (lastSeq !== null && key !== lastSeq && newest) $("announce").textContent = newest.text + ". " + newest.moves.join(", ");
    lastSeq = key;
    chart(doc.chart, doc.players);
  }

  function fillMe(players) {
    var sel = $("me");
    var names = players.map(function (p) { return p.name; });
    var current = Array.prototype.map.call(sel.options, function (o) { return o.value; }).slice(1);
    if (current.join("\n") !== names.join("\n")) {
      while (sel.options.length > 1) sel.remove(1);
      names.forEach(function (n) { sel.appendChild(el("option", { value: n, text: n })); });
    }
    sel.options[0].textContent = w("nobody");
    sel.value = names.indexOf(me) >= 0 ? me : "";
  }

  document.addEventListener("DOMContentLoaded", function () {
    $("language").addEventListener("change", function (e) {
      lang = e.target.value; store.set("banquier-lang", lang); load();
    });
    $("me").addEventListener("change", function (e) {
      me = e.target.value; store.set("banquier-me", me); if (doc) render();
    });
    var resized = null;
    window.addEventListener("resize", function () {
      window.clearTimeout(resized);
      resized = window.setTimeout(function () { if (doc && doc.game) chart(doc.chart, doc.players); }, 150);
    });
    load();
    connect();
    window.setInterval(watchdog, 1000);
  });
})();
