// scoundrel-web: keyboard, hints, browser storage and small page helpers.
// No framework, no build step. Text from the server or the user is always set with
// textContent, never parsed as HTML.
"use strict";

(function () {
  var STORE_CURRENT = "scoundrel.current";
  var STORE_STATS = "scoundrel.stats";

  function load(key, fallback) {
    try {
      var raw = window.localStorage.getItem(key);
      return raw ? JSON.parse(raw) : fallback;
    } catch (e) {
      return fallback;
    }
  }

  function save(key, value) {
    try {
      window.localStorage.setItem(key, JSON.stringify(value));
    } catch (e) {
      // storage full or disabled: the game still lives in the URL
    }
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function pct(x) {
    return (100 * x).toFixed(1) + "%";
  }

  // ---- buttons that carry their own pretty link -------------------------------
  document.addEventListener("click", function (ev) {
    var target = ev.target instanceof Element ? ev.target.closest("button[data-href]") : null;
    if (target && !target.disabled) {
      ev.preventDefault();
      window.location.assign(target.getAttribute("data-href"));
    }
  });

  // ---- the play page ----------------------------------------------------------
  function emptyStats() {
    return { games: 0, wins: 0, streak: 0, best_streak: 0, daily: {}, seen: {} };
  }

  function recordResult(game) {
    var stats = load(STORE_STATS, emptyStats());
    var key = game.getAttribute("data-url");
    if (stats.seen[key]) return; // a reload of a finished game counts once
    stats.seen[key] = 1;
    var won = game.getAttribute("data-won") === "1";
    stats.games += 1;
    if (won) {
      stats.wins += 1;
      stats.streak += 1;
      stats.best_streak = Math.max(stats.best_streak, stats.streak);
    } else {
      stats.streak = 0;
    }
    var daily = game.getAttribute("data-daily");
    if (daily && !(daily in stats.daily)) {
      stats.daily[daily] = Number(game.getAttribute("data-score"));
    }
    save(STORE_STATS, stats);
  }

  function renderHints(body, data) {
    body.textContent = "";
    if (data.win_chance !== null && data.win_chance !== undefined) {
      var bar = el("div", "evalbar");
      bar.setAttribute("data-win-chance", String(data.win_chance));
      bar.appendChild(el("span", "label", "Chance of winning from here"));
      var track = el("span", "track");
      var fill = el("span", "fill");
      fill.style.width = (100 * data.win_chance).toFixed(1) + "%";
      track.appendChild(fill);
      bar.appendChild(track);
      bar.appendChild(el("span", "number", pct(data.win_chance)));
      body.appendChild(bar);
    }
    var sampled = data.actions.filter(function (row) { return row.samples; });
    if (sampled.length) {
      // where the shown chance is calibrated it differs from the share of orders won
      var calibrated = sampled.some(function (row) {
        return row.search_win_chance !== row.win_chance;
      });
      body.appendChild(el("p", "sampled-note", "Endgame: the agent deals " +
        sampled[0].samples + " orders of the unseen cards and solves each as if it " +
        "were known (optimistic: a player cannot see the order); it plays the move " +
        "that wins the most orders." + (calibrated ? " The chance shown is calibrated " +
        "on the agent's own games." : "")));
    }
    var table = el("table", "hints");
    var head = el("tr");
    ["Action", "Chance of winning", "Expected final score", ""].forEach(function (h) {
      head.appendChild(el("th", null, h));
    });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var tbody = el("tbody");
    // the rows come best first (the agent's own choice on top); each shows the key
    // that plays it, read from the action's button on the page
    data.actions.forEach(function (row) {
      var tr = el("tr", row.action === data.best ? "best" : null);
      tr.setAttribute("data-hint-action", row.action);
      var td = el("td");
      var button = actionButton(row.action);
      var kbd = button ? button.querySelector("kbd") : null;
      if (kbd) {
        var key = el("kbd", null, kbd.textContent);
        key.setAttribute("data-hint-key", button.getAttribute("data-key") || "");
        td.appendChild(key);
        td.appendChild(document.createTextNode(" "));
      }
      td.appendChild(el("code", null, row.action));
      tr.appendChild(td);
      tr.appendChild(el("td", "win", row.win_chance === null ? "n/a" : pct(row.win_chance)));
      tr.appendChild(el("td", "score",
        row.expected_score === null ? "n/a" : row.expected_score.toFixed(2)));
      // in the endgame the agent samples dungeon orders and solves each as if known
      var note = row.exact ? "exact" : (row.samples ? "won in " +
        Math.round(row.search_win_chance * row.samples) + " of " + row.samples +
        " sampled orders" : "estimated");
      if (row.action === data.best) note += " · agent's choice";
      tr.appendChild(el("td", null, note));
      tbody.appendChild(tr);
    });
    table.appendChild(tbody);
    body.appendChild(table);
  }

  function actionButton(action) {
    var found = null;
    document.querySelectorAll("button.act[data-action]").forEach(function (b) {
      if (b.getAttribute("data-action") === action) found = b;
    });
    return found;
  }

  function askHint(game) {
    var panel = document.getElementById("hints");
    var body = document.getElementById("hint-body");
    if (!panel || !body) return;
    panel.hidden = false;
    body.textContent = "The fair agent is thinking…";
    fetch(game.getAttribute("data-hint-url"), { headers: { Accept: "application/json" } })
      .then(function (resp) {
        return resp.json().then(function (data) {
          return { ok: resp.ok, data: data };
        });
      })
      .then(function (res) {
        if (!res.ok) {
          body.textContent = "No hint: " + (res.data.error || "the server said no");
          return;
        }
        renderHints(body, res.data);
      })
      .catch(function () {
        body.textContent = "No hint: the server did not answer.";
      });
  }

  function initPlay(game) {
    save(STORE_CURRENT, {
      url: game.getAttribute("data-url"),
      title: game.getAttribute("data-title"),
      over: game.getAttribute("data-over") === "1",
    });
    if (game.getAttribute("data-over") === "1") recordResult(game);
    var hintButton = document.getElementById("hint-button");
    if (hintButton) {
      hintButton.addEventListener("click", function () {
        askHint(game);
      });
    }
    initKeys(game);
  }

  // Keys: a card's number is its place in the room as dealt (data-key "3"); Shift and
  // the number fights barehanded ("shift+3", when the weapon could fight it too).
  function initKeys(game) {
    document.addEventListener("keydown", function (ev) {
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      var t = ev.target;
      if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement ||
          t instanceof HTMLSelectElement) return;
      var key = ev.key.toLowerCase();
      // the digit from the physical key, so Shift+3 is 3 on every keyboard layout
      var digit = /^(Digit|Numpad)[1-9]$/.test(ev.code) ? ev.code.slice(-1) :
        (/^[1-9]$/.test(key) ? key : null);
      var button = null;
      if (digit) {
        if (ev.shiftKey) {
          button = document.querySelector('button.act[data-key="shift+' + digit + '"]');
        }
        if (!button) button = document.querySelector('button.act[data-key="' + digit + '"]');
      } else if (key === "f") {
        button = document.querySelector('button.act[data-action="flee"]');
      } else if (!game) {
        return;
      } else if (key === "h") {
        if (document.getElementById("hint-button")) askHint(game);
        ev.preventDefault();
        return;
      } else if (key === "u") {
        var undo = document.getElementById("undo");
        if (undo) window.location.assign(undo.getAttribute("href"));
        ev.preventDefault();
        return;
      }
      if (button && !button.disabled) {
        ev.preventDefault();
        button.click();
      }
    });
  }

  // ---- share links: copied to the clipboard -----------------------------------
  function initShare() {
    var share = document.getElementById("share");
    var status = document.getElementById("share-status");
    if (!share || !status) return;
    share.addEventListener("click", function (ev) {
      ev.preventDefault();
      var url = new URL(share.getAttribute("href"), window.location.href).href;
      function fallback() {
        // no clipboard (an insecure origin, or permission refused): show the link to copy
        status.textContent = "Copy this link: " + url;
        status.className = "share-status manual";
      }
      if (!navigator.clipboard || !window.isSecureContext) {
        fallback();
        return;
      }
      navigator.clipboard.writeText(url).then(function () {
        status.textContent = "Link copied to the clipboard.";
        status.className = "share-status copied";
      }, fallback);
    });
  }

  // ---- the ranked daily: one submission per move, and the result to copy --------
  function initRanked() {
    // a double click or a key held down would post the same move number twice: the
    // server refuses the second (409), so the page does not send it
    var form = document.getElementById("move-form");
    if (form) {
      form.addEventListener("submit", function (ev) {
        if (form.getAttribute("data-sent")) ev.preventDefault();
        form.setAttribute("data-sent", "1");
      });
      // a page restored by the Back button may submit again (the server judges it)
      window.addEventListener("pageshow", function () {
        form.removeAttribute("data-sent");
      });
    }
    var button = document.getElementById("copy-result");
    var text = document.getElementById("share-text");
    var status = document.getElementById("share-status");
    if (!button || !text || !status) return;
    button.addEventListener("click", function () {
      function fallback() {
        text.select();
        status.textContent = "Select the text and copy it.";
      }
      if (!navigator.clipboard || !window.isSecureContext) {
        fallback();
        return;
      }
      navigator.clipboard.writeText(text.value).then(function () {
        status.textContent = "Result copied to the clipboard.";
      }, fallback);
    });
  }

  // ---- the home page ----------------------------------------------------------
  function initHome() {
    var stats = load(STORE_STATS, emptyStats());
    document.querySelectorAll("[data-stat]").forEach(function (node) {
      var name = node.getAttribute("data-stat");
      node.textContent = String(stats[name] || 0);
    });
    var list = document.getElementById("daily-results");
    var days = Object.keys(stats.daily || {}).sort().reverse();
    if (list && days.length) {
      list.textContent = "";
      days.slice(0, 14).forEach(function (day) {
        var score = stats.daily[day];
        var li = el("li", score > 0 ? "won" : "lost");
        var a = el("a", null, day);
        a.href = "/daily/" + day;
        li.appendChild(a);
        li.appendChild(document.createTextNode(": score " + score + (score > 0 ? " (won)" : " (lost)")));
        list.appendChild(li);
      });
    }
    var current = load(STORE_CURRENT, null);
    var resume = document.getElementById("resume");
    var link = document.getElementById("resume-link");
    if (current && !current.over && resume && link && /^\/play\?/.test(current.url)) {
      link.href = current.url;
      link.textContent = "Continue your game (" + current.title + ")";
      resume.hidden = false;
    }
  }

  // ---- the review page --------------------------------------------------------
  function initReview() {
    var steps = Array.prototype.slice.call(document.querySelectorAll(".room-step"));
    var stepper = document.querySelector(".stepper");
    var at = 0;
    function show() {
      steps.forEach(function (s, i) {
        s.hidden = i !== at;
      });
      var label = document.getElementById("room-at");
      if (label) label.textContent = "room " + (at + 1) + " of " + steps.length;
      document.getElementById("room-prev").disabled = at === 0;
      document.getElementById("room-next").disabled = at === steps.length - 1;
    }
    if (steps.length && stepper) {
      stepper.hidden = false;
      document.getElementById("room-prev").addEventListener("click", function () {
        if (at > 0) at -= 1;
        show();
      });
      document.getElementById("room-next").addEventListener("click", function () {
        if (at < steps.length - 1) at += 1;
        show();
      });
      show();
    }
    var upload = document.getElementById("upload");
    var error = document.getElementById("upload-error");
    if (upload && error) {
      upload.addEventListener("change", function () {
        var file = upload.files && upload.files[0];
        if (!file) return;
        file.text().then(function (text) {
          var rec;
          try {
            rec = JSON.parse(text);
          } catch (e) {
            throw new Error("the file is not JSON");
          }
          if (!rec || rec.format !== "scoundrel-record/1") {
            throw new Error("not a scoundrel-record/1 file");
          }
          var q = new URLSearchParams();
          if (rec.seed !== null && rec.seed !== undefined) q.set("seed", String(rec.seed));
          else q.set("deck", String(rec.deck || ""));
          q.set("variant", String(rec.variant || "classic"));
          q.set("weapon_rule", String(rec.weapon_rule || "strict"));
          var line = String(rec.line || "").trim().split(/\s+/).filter(Boolean).join(",");
          if (line) q.set("line", line);
          window.location.assign("/review?" + q.toString());
        }).catch(function (e) {
          error.textContent = "Cannot read that record: " + e.message;
          error.hidden = false;
        });
      });
    }
  }

  // ---- the analysis page ------------------------------------------------------
  function initAnalysis() {
    var deck = document.getElementById("deck-text");
    var picker = document.getElementById("card-picker");
    if (deck && picker) {
      picker.addEventListener("click", function (ev) {
        var b = ev.target instanceof Element ? ev.target.closest("button[data-card]") : null;
        if (!b) return;
        var cards = deck.value.trim().split(/\s+/).filter(Boolean);
        var c = b.getAttribute("data-card");
        if (cards.indexOf(c) >= 0) return;
        cards.push(c);
        deck.value = cards.join(" ");
        b.disabled = true;
      });
      var clear = document.getElementById("deck-clear");
      if (clear) {
        clear.addEventListener("click", function () {
          deck.value = "";
          picker.querySelectorAll("button[data-card]").forEach(function (b) {
            b.disabled = false;
          });
        });
      }
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var page = document.body.getAttribute("data-page");
    var game = document.getElementById("game");
    if (page === "play" && game) initPlay(game);
    if (page === "learn" || page === "puzzles" || page === "ranked") initKeys(null);
    if (page === "ranked") initRanked();
    initShare();
    if (page === "home") initHome();
    if (page === "review") initReview();
    if (page === "analysis") initAnalysis();
  });
})();
