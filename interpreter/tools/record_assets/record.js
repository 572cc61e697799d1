"use strict";
// raiders record: the page. Text from the server is only ever put in with textContent.
(function () {
  const token = new URLSearchParams(location.search).get("token");
  const app = document.getElementById("app");
  const errorBox = document.getElementById("error");
  const where = document.getElementById("where");
  let current = null;        // the game's state, as the server last sent it
  let pending = [];          // answers given for the room being entered
  let keys = {};             // key -> action, for the screen shown
  let undoArmed = false;
  let seq = 0;               // renders so far (a test waits for the next)

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function add(node, ...children) {
    node.append(...children.flat().filter(c => c !== null && c !== undefined && c !== false));
  }

  function showError(message) {
    errorBox.textContent = message || "";
    errorBox.hidden = !message;
  }

  async function api(method, path, body) {
    const headers = {};
    if (token) headers["X-Raiders-Token"] = token;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(path, {method, headers,
                                   body: body === undefined ? undefined : JSON.stringify(body)});
    let data = null;
    try { data = await res.json(); } catch (e) { data = {error: "the server sent no answer"}; }
    if (!res.ok) {
      const err = new Error(data && data.error ? data.error : "refused (" + res.status + ")");
      err.field = data && data.field;
      throw err;
    }
    return data;
  }

  function storeKey() {
    return current ? "raiders-record:" + current.game + ":" + current.view.steps.length : null;
  }
  let savedKey = null;
  function savePending() {
    // the answers of the room being entered, kept by game and room: a reload keeps them
    try {
      const k = storeKey();
      if (savedKey && savedKey !== k) localStorage.removeItem(savedKey);
      savedKey = k;
      if (!k) return;
      if (pending.length) localStorage.setItem(k, JSON.stringify(pending));
      else localStorage.removeItem(k);
    } catch (e) { /* storage off: a reload starts the room again */ }
  }

  // ---- the list of games and the set-up form -------------------------------------------
  async function home() {
    current = null; pending = []; keys = {};
    where.textContent = "";
    history.replaceState(null, "", location.pathname + location.search);
    let games = {games: [], mods: []};
    try { games = await api("GET", "/api/games"); } catch (e) { showError(e.message); }
    app.replaceChildren();
    const list = el("section", {"aria-label": "games"}, el("h2", {text: "Games in this folder"}));
    if (!games.games.length) list.append(el("p", {class: "muted", text: "none yet"}));
    const ul = el("ul");
    for (const g of games.games) {
      ul.append(el("li", {}, el("button", {type: "button", class: "open-game",
        "data-game": g.name, onclick: () => openGame(g.name)},
        g.name + " — " + g.rooms + " room(s)" + (g.finished ? ", finished" : ""))));
    }
    list.append(ul);
    app.append(list);
    app.append(await setupForm(games.mods));
    keys = {};
    app.dataset.seq = String(++seq);
  }

  async function setupForm(mods) {
    const form = el("section", {id: "setup", "aria-label": "a new game"},
                    el("h2", {text: "A new game"}));
    const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, "");
    const name = el("input", {id: "game-name", value: "game-" + stamp, required: true,
                              "aria-label": "the game's name (its log file)"});
    const ruleset = el("select", {id: "ruleset", "aria-label": "ruleset"});
    const variant = el("select", {id: "variant", "aria-label": "variant"});
    const body = el("div");
    add(form, el("div", {class: "row"}, el("label", {}, "Name ", name), ".yaml"),
                el("div", {class: "row"}, el("label", {}, "Ruleset ", ruleset),
                   el("label", {}, "Variant ", variant)),
                mods.length ? el("p", {class: "muted", text: "Mods in play: " + mods.join(", ")})
                            : null,
                body);
    let opts = null;
    async function load(rs, v) {
      form.dataset.loading = "1";  // the form is drawn again when the options come
      try {
        const q = "/api/options?ruleset=" + encodeURIComponent(rs) +
                  (v ? "&variant=" + encodeURIComponent(v) : "");
        opts = await api("GET", q);
        showError("");
      } catch (e) { showError(e.message); delete form.dataset.loading; return; }
      ruleset.replaceChildren(...opts.rulesets.map(r => el("option", {value: r, text: r,
                                                                       selected: r === opts.ruleset})));
      variant.replaceChildren(...opts.variants.map(r => el("option", {value: r, text: r,
                                                                       selected: r === opts.variant})));
      fill();
    }
    ruleset.addEventListener("change", () => load(ruleset.value, null));
    variant.addEventListener("change", () => load(ruleset.value, variant.value));

    function fill() {
      body.replaceChildren();
      const players = el("div", {id: "players"});
      const count = el("select", {id: "player-count", "aria-label": "how many players"});
      for (let n = opts.minPlayers; n <= opts.maxPlayers; n++) {
        count.append(el("option", {value: n, text: n + (n === 1 ? " player" : " players")}));
      }
      const mode = el("select", {id: "deal", "aria-label": "the dungeon"},
                      el("option", {value: "table", text: "as laid out on the table"}),
                      el("option", {value: "seed", text: "dealt from a seed"}));
      const seed = el("input", {id: "seed", type: "number", min: 0,
                                value: Math.floor(Math.random() * 1e9), "aria-label": "seed"});
      const first = el("select", {id: "first-player", "aria-label": "first player"});
      const difficulty = el("select", {id: "difficulty", "aria-label": "difficulty"},
                            [2, 3, 4, 5].map(d => el("option", {value: d, text: d,
                                                                 selected: d === 3})));
      const dungeon = el("div", {id: "dungeon"});
      function rows() {
        const n = Number(count.value);
        const old = [...players.querySelectorAll(".player")].map(r => [
          r.querySelector("input").value, r.querySelector("select").value]);
        players.replaceChildren();
        for (let i = 0; i < n; i++) {
          const chars = el("select", {class: "character", "aria-label": "character of player " + (i + 1)},
                           mode.value === "seed" ? el("option", {value: "", text: "dealt by the seed"}) : null,
                           Object.entries(opts.characters).map(([id, nm]) =>
                             el("option", {value: id, text: nm})));
          const keep = old[i];
          if (keep) chars.value = keep[1];
          else if (mode.value !== "seed") chars.selectedIndex = i % chars.options.length;
          players.append(el("div", {class: "row player"},
            el("label", {}, "Seat " + (i + 1) + " ",
               el("input", {class: "player-name", value: keep ? keep[0] : "",
                            placeholder: "name", "aria-label": "name of player " + (i + 1)})),
            chars));
        }
        firsts();
      }
      function firsts() {
        const names = [...players.querySelectorAll(".player-name")].map((x, i) => x.value || "seat " + (i + 1));
        first.replaceChildren();
        add(first, mode.value === "seed" ? el("option", {value: "", text: "as the seed deals"}) : null,
            names.map((nm, i) => el("option", {value: i, text: nm})));
      }
      players.addEventListener("input", firsts);
      function rooms() {
        dungeon.replaceChildren();
        seed.parentElement.hidden = mode.value !== "seed";
        if (mode.value === "seed") return;
        const ids = Object.keys(opts.rooms);
        for (let f = 0; f < opts.floors; f++) {
          const row = el("div", {class: "floor", "aria-label": "floor " + (f + 1)});
          for (let r = 0; r < opts.roomsPerFloor; r++) {
            const boss = f === opts.floors - 1 && r === opts.roomsPerFloor - 1 &&
                         ids.some(id => opts.rooms[id].boss);
            const pick = el("select", {class: "room", id: "room-" + f + "-" + r,
                                       "aria-label": "floor " + (f + 1) + " room " + (r + 1)},
                            el("option", {value: "", text: boss ? "—" : "— (face down: said when turned over)"}),
                            ids.filter(id => boss ? opts.rooms[id].boss : opts.rooms[id].copies > 0)
                               .map(id => el("option", {value: id, text: opts.rooms[id].name + " (" + id + ")"})));
            const up = el("input", {type: "checkbox", class: "face-up", id: "up-" + f + "-" + r,
                                    checked: true});
            row.append(el("div", {class: "slot"}, pick,
                          el("label", {}, up, " face up")));
          }
          dungeon.append(el("h3", {text: "Floor " + (f + 1)}), row);
        }
      }
      mode.addEventListener("change", () => { rows(); rooms(); });
      count.addEventListener("change", rows);
      const create = el("button", {type: "submit", class: "primary", id: "create"}, "Start recording");
      add(body,
        el("div", {class: "row"}, el("label", {}, "Players ", count)), players,
        opts.firstPlayer ? el("div", {class: "row"}, el("label", {}, "First player ", first)) : null,
        opts.solo ? el("div", {class: "row"}, el("label", {}, "Difficulty (starting wounds) ", difficulty)) : null,
        el("div", {class: "row"}, el("label", {}, "Dungeon ", mode),
           el("label", {}, "Seed ", seed)),
        dungeon,
        el("form", {onsubmit: async (ev) => {
          ev.preventDefault();
          const setup = {ruleset: ruleset.value, variant: variant.value, players: []};
          for (const row of players.querySelectorAll(".player")) {
            setup.players.push({name: row.querySelector("input").value.trim(),
                                character: row.querySelector("select").value || null});
          }
          if (opts.firstPlayer && first.value !== "") {
            setup.first_player = setup.players[Number(first.value)].name;
          }
          if (opts.solo) setup.difficulty = Number(difficulty.value);
          if (mode.value === "seed") setup.seed = Number(seed.value);
          else {
            setup.dungeon = [];
            for (let f = 0; f < opts.floors; f++) {
              const floor = {rooms: [], facing: ""};
              for (let r = 0; r < opts.roomsPerFloor; r++) {
                floor.rooms.push(document.getElementById("room-" + f + "-" + r).value);
                floor.facing += document.getElementById("up-" + f + "-" + r).checked ? "U" : "D";
              }
              setup.dungeon.push(floor);
            }
          }
          try {
            const state = await api("POST", "/api/games", {name: name.value.trim(), setup});
            showError("");
            pending = [];
            showGame(state);
          } catch (e) { showError(e.message); }
        }}, create));
      count.value = String(Math.max(opts.minPlayers, Math.min(opts.maxPlayers, 4)));
      rows(); rooms();
      form.dataset.loaded = opts.ruleset + "/" + opts.variant;
      delete form.dataset.loading;
    }
    await load("deluxe", null);
    return form;
  }

  // ---- a game ----------------------------------------------------------------------------
  async function openGame(name) {
    try {
      const state = await api("GET", "/api/games/" + encodeURIComponent(name));
      showError("");
      current = state;
      pending = [];
      try { pending = JSON.parse(localStorage.getItem(storeKey()) || "[]"); } catch (e) { pending = []; }
      if (pending.length) {
        try {
          return showGame(await api("POST", "/api/games/" + encodeURIComponent(name) + "/answer",
                                    {answers: pending}));
        } catch (e) { pending = []; }  // kept answers the log no longer fits: start the room again
      }
      showGame(state);
    } catch (e) { showError(e.message); home(); }
  }

  async function answer(kind, player, value) {
    undoArmed = false;
    pending.push({kind, player: player === undefined ? null : player, value});
    return send();
  }

  async function send() {
    const before = current ? current.view.steps.length : 0;
    try {
      const state = await api("POST", "/api/games/" + encodeURIComponent(current.game) + "/answer",
                              {answers: pending});
      showError("");
      if (state.view.steps.length !== before || state.finished) pending = [];
      showGame(state, state.view.steps.length > before);
    } catch (e) {
      pending.pop();
      showError(e.message);
      showGame(current);
    }
  }

  async function back() {
    if (!pending.length) return;
    pending.pop();
    return send();
  }

  async function undo() {
    if (!undoArmed) { undoArmed = true; showGame(current); return; }
    undoArmed = false;
    try {
      const state = await api("POST", "/api/games/" + encodeURIComponent(current.game) + "/undo", {});
      pending = [];
      showError("");
      showGame(state);
    } catch (e) { showError(e.message); showGame(current); }
  }

  function cardName(view, card) {
    const info = view.cards[card];
    return info ? info.name : String(card);
  }

  function showGame(state, justRecorded) {
    current = state;
    savePending();
    keys = {};
    app.dataset.seq = String(++seq);
    const view = state.view;
    location.hash = "game=" + encodeURIComponent(state.game);
    where.textContent = state.game + " · " + view.ruleset.name + ", " + view.ruleset.variant;
    app.replaceChildren();
    const done = view.steps.length;
    const q = state.question;
    if (justRecorded && done) app.append(roomReport(view, view.steps[done - 1], true));
    if (state.finished) {
      const r = view.result;
      app.append(el("section", {id: "result", "aria-label": "the end"},
        el("h2", {text: "The game is over"}),
        el("p", {}, (r.solo ? (r.winners.length ? "The hero survives." : "The hero is lost.")
                    : "Winners: " + (r.winners.join(", ") || "nobody")) +
                    (r.out.length ? " Out: " + r.out.join(", ") + "." : "")),
        table(view, r.players),
        el("p", {class: "muted", text: "The log is saved as " + state.game +
                 ": `raiders replay --check " + state.game + "` replays it."})));
    } else if (q) {
      const next = state.next;
      const sec = el("section", {id: "question", "aria-label": "the room being recorded",
                                 "data-kind": q.kind, "data-player": q.player},
        el("h2", {}, "Room " + next.number + " (floor " + (next.floor + 1) + ", room " + (next.room + 1) + "): ",
           el("span", {id: "room-name", text: next.name}), " ",
           el("span", {class: "muted", text: "(" + next.kind + (next.faceUp ? "" : ", face down") + ")"})));
      if (pending.length) {
        sec.append(el("p", {class: "pending", id: "pending"}, "So far: " + pending.map(a =>
          (a.player ? a.player + " " : "") + a.kind + " " + (a.kind === "card" || a.kind === "room" ? cardName(view, a.value) : String(a.value))).join("; ")));
      }
      sec.append(el("p", {id: "ask", text: q.text}));
      const opts = el("div", {class: "options", id: "options"});
      const whys = el("div", {id: "why-not"});
      if (q.kind === "card") {
        let letter = 0;
        for (const o of q.options) {
          const key = typeof o.card === "number" ? String(o.card) : "abcdefghijklmopqrstvwxz"[letter++];
          const b = el("button", {type: "button", class: "card", "data-card": String(o.card),
                                  disabled: !o.legal, title: o.why || undefined,
                                  onclick: () => answer("card", q.player, o.card)},
                       o.name, el("span", {class: "key", text: key}));
          opts.append(b);
          if (o.legal) keys[key] = () => answer("card", q.player, o.card);
          else whys.append(el("p", {class: "why", text: o.name + ": " + o.why}));
        }
      } else if (q.kind === "room") {
        for (const o of q.options) {
          opts.append(el("button", {type: "button", class: "room-choice", "data-card": o.card,
                                    onclick: () => answer("room", null, o.card)},
                         o.name, el("span", {class: "key", text: o.kind})));
        }
      } else if (q.kind === "peek" || q.kind === "may") {
        opts.append(el("button", {type: "button", class: "yes", onclick: () => answer(q.kind, q.player, true)},
                       "Yes", el("span", {class: "key", text: "y"})),
                    el("button", {type: "button", class: "no", onclick: () => answer(q.kind, q.player, false)},
                       "No", el("span", {class: "key", text: "n"})));
        keys.y = () => answer(q.kind, q.player, true);
        keys.n = () => answer(q.kind, q.player, false);
      } else {
        const values = q.kind === "roll" ? Array.from({length: Math.min(q.faces, 20)}, (_, i) => i + 1) : q.values;
        for (const v of values) {
          opts.append(el("button", {type: "button", class: "value", "data-value": v,
                                    onclick: () => answer(q.kind, null, v)}, String(v)));
          if (v < 10) keys[String(v)] = () => answer(q.kind, null, v);
        }
      }
      sec.append(opts, whys);
      sec.append(el("div", {class: "row"},
        el("button", {type: "button", id: "back", disabled: !pending.length, onclick: back},
           "Take back the last answer", el("span", {class: "key", text: "⌫"})),
        el("button", {type: "button", id: "undo", class: "danger", disabled: !done, onclick: undo},
           undoArmed ? "Really undo room " + done + "?" : "Undo the last room",
           el("span", {class: "key", text: "u"}))));
      app.append(sec);
      app.append(el("section", {"aria-label": "the table now"}, el("h2", {text: "The table now"}),
                    table(view, q.players)));
    }
    if (done && !justRecorded) app.append(roomReport(view, view.steps[done - 1], false));
    if (state.finished && done) {
      app.append(el("div", {class: "row"}, el("button", {type: "button", id: "undo", class: "danger", onclick: undo},
        undoArmed ? "Really undo room " + done + "?" : "Undo the last room", el("span", {class: "key", text: "u"}))));
    }
    app.append(dungeon_(view, state.unseen || []));
    app.append(history_(view));
    keys.Backspace = back;
    keys.u = () => { if (done) undo(); };
    const first = app.querySelector("#options button:not(:disabled)");
    if (first) first.focus({preventScroll: true});
  }

  function table(view, players) {
    const t = el("table", {class: "players"},
                 el("thead", {}, el("tr", {}, ["Player", "Coins", "Wounds", "Items", "Statuses", ""].map(h => el("th", {text: h})))));
    const body = el("tbody");
    players.forEach((p, i) => {
      const name = p.name || view.players[i].name;
      const marks = Object.entries(p.marks || {}).map(([m, n]) => n === 1 ? m : m + " ×" + n).join(", ");
      body.append(el("tr", {"data-player": name},
        el("td", {text: name}), el("td", {class: "coins", text: p.coins}),
        el("td", {class: "wounds", text: p.wounds}),
        el("td", {class: "items", text: p.items.map(c => cardName(view, c)).join(", ") || "—"}),
        el("td", {text: marks || "—"}),
        el("td", {class: "out", text: p.out || (p.dead ? "dead" : "")})));
    });
    t.append(body);
    return t;
  }

  function roomReport(view, step, fresh) {
    return el("section", {id: "last-room", "aria-label": "the last room recorded"},
      el("h2", {text: (fresh ? "Recorded: " : "Last room: ") + "room " + view.steps.length + ", " + step.name}),
      el("p", {}, step.plays.map(p => p.player + ": " + p.words).join("; ")),
      el("h3", {text: "What the rules did, and why"}),
      el("ol", {class: "steps"}, step.steps.length ? step.steps.map(s => el("li", {text: s.text}))
                                                   : el("li", {class: "muted", text: "nothing changed"})),
      el("h3", {text: "After the room (check your counters)"}),
      table(view, step.players));
  }

  function dungeon_(view, unseen) {
    // the deal as the log holds it (a seed's deal, to lay out at the table); a face-down
    // room not yet turned over is only a stand-in, so it is not named
    const sec = el("details", {id: "deal"}, el("summary", {text: "The dungeon and the characters"}));
    sec.append(el("p", {}, view.players.map(p => p.name + ": " + cardName(view, p.character)).join("; ")));
    const ol = el("ol");
    view.floors.forEach((floor, f) => {
      ol.append(el("li", {text: floor.rooms.map((room, r) =>
        unseen.includes((f + 1) + "." + (r + 1)) ? "(face down, not yet turned over)"
          : cardName(view, room.card) + (room.up ? "" : " (face down)")).join(" · ")}));
    });
    sec.append(ol);
    return el("section", {}, sec);
  }

  function history_(view) {
    const sec = el("details", {id: "history"}, el("summary", {text: "Rooms recorded (" + view.steps.length + ")"}));
    const ol = el("ol");
    for (const s of view.steps) {
      ol.append(el("li", {text: s.name + " — " + s.plays.map(p => p.player + " " + p.words).join(", ")}));
    }
    sec.append(ol);
    return el("section", {}, sec);
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const act = keys[ev.key];
    if (act) { ev.preventDefault(); act(); }
  });
  document.getElementById("home-link").addEventListener("click", (ev) => { ev.preventDefault(); home(); });

  const m = /game=([^&]+)/.exec(location.hash);
  if (m) openGame(decodeURIComponent(m[1])); else home();
})();
