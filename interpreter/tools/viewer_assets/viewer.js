// raiders replay viewer: steps through a logged game embedded as JSON (raiders-viewer/1).
// Everything from the log is put in the page with textContent, never as HTML: a log may
// come from a stranger.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("game-data").textContent);
  var steps = data.steps;
  var names = data.players.map(function (p) { return p.name; });
  var step = 0; // 0: the setup; k: after the k-th room

  function $(id) { return document.getElementById(id); }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, String(attrs[k]));
      });
    }
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function cardName(id) {
    var c = data.cards[id];
    return c ? c.name : id;
  }

  function cardTitle(id) {
    var c = data.cards[id];
    return c ? c.words.join("\n") : id;
  }

  function stateAt(k) {
    return k === 0 ? data.start.players : steps[k - 1].players;
  }

  // The first step (1-based room number) of each floor that was reached.
  function floorStarts() {
    var starts = {};
    steps.forEach(function (s, i) {
      if (!(s.floor in starts)) starts[s.floor] = i + 1;
    });
    return starts;
  }

  function go(k) {
    k = Math.max(0, Math.min(steps.length, k));
    step = k;
    render();
    if (history.replaceState) history.replaceState(null, "", "#room=" + k);
  }

  function renderHeader() {
    $("title").textContent = data.title;
    var r = data.ruleset;
    $("meta").textContent = r.name + " · " + r.variant + " play · " + names.length +
      " player(s) · " + steps.length + " room(s) played" +
      (data.result ? "" : " · a game in progress");
    var fb = $("floor-buttons");
    fb.textContent = "floor ";
    var starts = floorStarts();
    data.floors.forEach(function (f, i) {
      var b = el("button", { type: "button", "data-floor": i + 1, title: "floor " + (i + 1) },
        String(i + 1));
      if (!(i in starts)) b.disabled = true;
      b.addEventListener("click", function () { go(starts[i]); });
      fb.appendChild(b);
    });
    var sc = $("scrubber");
    sc.max = String(steps.length);
    sc.addEventListener("input", function () { go(parseInt(sc.value, 10)); });
    $("first").addEventListener("click", function () { go(0); });
    $("prev").addEventListener("click", function () { go(step - 1); });
    $("next").addEventListener("click", function () { go(step + 1); });
    $("last").addEventListener("click", function () { go(steps.length); });
    $("reveal").addEventListener("change", render);
    if (data.firstDivergence !== null) {
      var d = steps[data.firstDivergence];
      var banner = $("divergence-banner");
      banner.hidden = false;
      banner.appendChild(el("span", null, "The log's checkpoint differs first at floor " +
        (d.floor + 1) + ", room " + (d.room + 1) + " (" + d.name + ")" +
        (d.line ? ", log line " + d.line : "") + ". "));
      var b = el("button", { type: "button", id: "goto-divergence" }, "show it");
      b.addEventListener("click", function () { go(data.firstDivergence + 1); });
      banner.appendChild(b);
    } else if (data.result && data.result.diverges.length) {
      $("divergence-banner").hidden = false;
      $("divergence-banner").textContent = "The log's result differs from the replay's.";
    }
  }

  function renderPosition() {
    var text;
    if (step === 0) text = "setup";
    else {
      var s = steps[step - 1];
      text = "room " + step + " of " + steps.length + " · floor " + (s.floor + 1) +
        ", room " + (s.room + 1);
    }
    $("position").textContent = text;
    $("scrubber").value = String(step);
    $("prev").disabled = step === 0;
    $("first").disabled = step === 0;
    $("next").disabled = step === steps.length;
    $("last").disabled = step === steps.length;
    var cur = step === 0 ? -1 : steps[step - 1].floor;
    Array.prototype.forEach.call($("floor-buttons").querySelectorAll("button"), function (b) {
      b.classList.toggle("current", parseInt(b.getAttribute("data-floor"), 10) - 1 === cur);
    });
  }

  function renderDungeon() {
    var box = $("dungeon");
    box.textContent = "";
    var reveal = $("reveal").checked;
    var played = {}; // "f,r" -> step number
    steps.forEach(function (s, i) { played[s.floor + "," + s.room] = i + 1; });
    var cur = step === 0 ? null : steps[step - 1];
    data.floors.forEach(function (f, fi) {
      var row = el("div", { "class": "floor", "data-floor": fi + 1 });
      row.appendChild(el("div", { "class": "floor-label" },
        "Floor " + (fi + 1) + (f.card ? " · " + cardName(f.card) : "")));
      f.rooms.forEach(function (slot, ri) {
        var k = played[fi + "," + ri];
        var seen = k !== undefined && k <= step;
        var isCur = cur !== null && cur.floor === fi && cur.room === ri;
        var cls = "slot" + (seen ? " played" : "") + (isCur ? " current" : "") +
          (slot.up ? " up" : " down");
        var cell = el("div", { "class": cls, "data-room": fi + 1 + "." + (ri + 1),
          title: seen || slot.up || reveal ? cardTitle(slot.card) : "face down" });
        if (seen || slot.up || reveal) {
          cell.appendChild(el("span", { "class": "room-name" }, cardName(slot.card)));
          // a room played is open on the table, whichever way it was dealt
          cell.appendChild(el("span", { "class": "room-facing" },
            seen ? "played" : slot.up ? "face up" : "face down"));
        } else {
          cell.appendChild(el("span", { "class": "room-back" }, "?"));
          cell.appendChild(el("span", { "class": "room-facing" }, "face down"));
        }
        if (k !== undefined) {
          cell.classList.add("reached");
          cell.addEventListener("click", function () { go(k); });
          if (steps[k - 1].diverges.length) cell.classList.add("diverges");
        }
        row.appendChild(cell);
      });
      box.appendChild(row);
    });
  }

  function renderRoom() {
    var box = $("room");
    box.textContent = "";
    if (step === 0) {
      box.appendChild(el("h2", null, "Setup"));
      box.appendChild(el("p", null, "The dungeon is dealt and the characters chosen. " +
        "Press → (or next) to enter the first room."));
      return;
    }
    var s = steps[step - 1];
    var h = el("h2", { title: cardTitle(s.card) }, "Floor " + (s.floor + 1) + ", room " +
      (s.room + 1) + ": " + s.name);
    h.appendChild(el("span", { "class": "kind" }, " (" + s.kind + ")"));
    box.appendChild(h);
    var facts = el("ul", { "class": "facts" });
    if (s.firstPlayer) facts.appendChild(el("li", null, "first player: " + s.firstPlayer));
    if (s.torches.length) facts.appendChild(el("li", null, "torches: " +
      s.torches.join(", ") + " looked ahead"));
    if (s.monster !== null) facts.appendChild(el("li", null, "monster card: " + s.monster));
    if (s.rolls.length) facts.appendChild(el("li", null, "dice: " + s.rolls.join(", ")));
    if (facts.childNodes.length) box.appendChild(facts);
    box.appendChild(el("h3", null, "Cards played"));
    var plays = el("ul", { "class": "plays" });
    s.plays.forEach(function (p) {
      var li = el("li", { "data-player": p.player });
      li.appendChild(el("span", { "class": "who" }, p.player + ": "));
      p.cards.forEach(function (c, i) {
        if (i) li.appendChild(document.createTextNode(" then "));
        li.appendChild(el("span", { "class": "card" + (/^[0-9]+$/.test(c) ? " power" : " item"),
          title: /^[0-9]+$/.test(c) ? "power card " + c : cardTitle(c) }, c));
      });
      plays.appendChild(li);
    });
    box.appendChild(plays);
    box.appendChild(el("h3", null, "What happened, and why"));
    var why = el("ol", { "class": "why" });
    if (!s.steps.length) why.appendChild(el("li", { "class": "effect" }, "nothing happens"));
    s.steps.forEach(function (w) {
      var li = el("li", { "class": w.sort });
      if (w.sort !== "effect") li.appendChild(el("span", { "class": "badge" }, w.sort));
      li.appendChild(document.createTextNode(w.sort === "effect" ? w.text :
        w.text.replace(/^\[[a-z]+\] /, "")));
      why.appendChild(li);
    });
    box.appendChild(why);
    if (s.diverges.length) {
      var d = el("div", { "class": "divergence" });
      d.appendChild(el("strong", null, "The log's checkpoint differs here" +
        (s.line ? " (log line " + s.line + ")" : "") + ":"));
      var ul = el("ul");
      s.diverges.forEach(function (x) {
        ul.appendChild(el("li", null, x.player + "." + x.field + ": expected " +
          JSON.stringify(x.expected) + ", the replay has " + JSON.stringify(x.actual)));
      });
      d.appendChild(ul);
      box.appendChild(d);
    } else if (s.checkpoint) {
      box.appendChild(el("p", { "class": "checkpoint-ok" }, "✓ the log's checkpoint agrees"));
    }
  }

  // items by the names on their cards, as the narration gives them
  function fmtItems(items) { return items.length ? items.map(cardName).join(", ") : "—"; }

  function renderPlayers() {
    var box = $("players");
    box.textContent = "";
    var now = stateAt(step);
    var before = step > 0 ? stateAt(step - 1) : null;
    var s = step > 0 ? steps[step - 1] : null;
    var wrong = {};
    if (s) s.diverges.forEach(function (x) { wrong[x.player + "." + x.field] = x; });
    var table = el("table");
    var head = el("tr");
    ["player", "character", "coins", "wounds", "items", "hand", "status"].forEach(function (c) {
      head.appendChild(el("th", null, c));
    });
    table.appendChild(el("thead")).appendChild(head);
    var body = el("tbody");
    data.players.forEach(function (p, i) {
      var st = now[i];
      var tr = el("tr", { "data-player": p.name, "class": st.dead ? "dead" : (st.out ? "out" : "") });
      tr.appendChild(el("td", { "class": "name" }, p.name));
      tr.appendChild(el("td", { title: cardTitle(p.character) }, cardName(p.character)));
      [["coins", st.coins], ["wounds", st.wounds], ["items", fmtItems(st.items)]].forEach(
        function (f) {
          var td = el("td", { "data-field": f[0] }, f[1]);
          if (before) {
            var old = before[i][f[0]];
            if (f[0] === "items" ? old.join(",") !== st.items.join(",") : old !== st[f[0]]) {
              td.classList.add("changed");
            }
          }
          var x = wrong[p.name + "." + f[0]];
          if (x) {
            td.classList.add("diverges");
            td.title = "the log says " + JSON.stringify(x.expected);
          }
          tr.appendChild(td);
        });
      tr.appendChild(el("td", { "data-field": "hand" }, st.hand.join(" ") || "—"));
      // After the last room, final scoring may put a player out (unconscious, bled out).
      var out = st.out;
      if (step === steps.length && data.result) out = data.result.players[i].out;
      var marks = Object.keys(st.marks).map(function (m) { return m + " ×" + st.marks[m]; });
      tr.appendChild(el("td", { "data-field": "status" },
        [out || ""].concat(marks).filter(Boolean).join(", ") || ""));
      body.appendChild(tr);
    });
    table.appendChild(body);
    box.appendChild(table);
  }

  function renderResult() {
    var box = $("result");
    box.textContent = "";
    if (step !== steps.length) return;
    if (!data.result) {
      box.appendChild(el("p", { "class": "in-progress" }, "A game in progress: " +
        steps.length + " room(s) played so far."));
      return;
    }
    var r = data.result;
    box.appendChild(el("h2", null, "End of the game"));
    var ul = el("ul");
    r.players.forEach(function (p) {
      ul.appendChild(el("li", null, p.name + ": " + p.coins + " coins, " + p.wounds +
        " wounds" + (p.out ? " — " + p.out : "")));
    });
    box.appendChild(ul);
    var text;
    if (r.solo) text = r.players[0].dead ? "The hero died: no score." :
      "The hero survived. Score: " + r.players[0].coins + " coins.";
    else text = r.winners.length ? "Winner(s): " + r.winners.join(", ") : "Nobody wins.";
    box.appendChild(el("p", { "class": "winners" }, text));
    if (r.why.length) {
      var ol = el("ol", { "class": "why" });
      r.why.forEach(function (w) { ol.appendChild(el("li", { "class": w.sort }, w.text)); });
      box.appendChild(ol);
    }
    r.diverges.forEach(function (x) {
      box.appendChild(el("p", { "class": "divergence" }, "The log's result." + x.field +
        " is " + JSON.stringify(x.expected) + "; the replay has " + JSON.stringify(x.actual)));
    });
  }

  function render() {
    renderPosition();
    renderDungeon();
    renderRoom();
    renderPlayers();
    renderResult();
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target && e.target.tagName === "INPUT" && e.target.type === "range") return;
    var starts = floorStarts();
    var cur = step === 0 ? -1 : steps[step - 1].floor;
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(steps.length);
    else if (e.key === "PageDown" && (cur + 1) in starts) go(starts[cur + 1]);
    else if (e.key === "PageUp") go(cur > 0 && (cur - 1) in starts ? starts[cur - 1] : 0);
    else if (/^[1-9]$/.test(e.key) && (parseInt(e.key, 10) - 1) in starts) {
      go(starts[parseInt(e.key, 10) - 1]);
    } else return;
    e.preventDefault();
  });

  renderHeader();
  var m = /room=([0-9]+)/.exec(location.hash);
  go(m ? parseInt(m[1], 10) : 0);
})();
