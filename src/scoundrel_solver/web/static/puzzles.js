// scoundrel-web puzzles: the key moments of reviewed games, kept in this browser.
// A puzzle is the position as the player saw it (an information state's text: the
// unseen cards as a set, never their order). Text is always set with textContent.
"use strict";

(function () {
  var STORE = "scoundrel.puzzles";
  var MAX = 100; // the oldest puzzles go first beyond this

  function load() {
    try {
      var list = JSON.parse(window.localStorage.getItem(STORE) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];
    }
  }

  function save(list) {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(list.slice(-MAX)));
    } catch (e) {
      // storage full or disabled: the puzzles are simply not kept
    }
  }

  function find(list, state) {
    for (var i = 0; i < list.length; i++) if (list[i].state === state) return list[i];
    return null;
  }

  // the review: each key moment becomes a puzzle (once)
  function keepMoments() {
    var list = load();
    document.querySelectorAll("[data-key-moment][data-puzzle-state]").forEach(function (m) {
      var state = m.getAttribute("data-puzzle-state");
      if (!state || find(list, state)) return;
      list.push({ state: state, label: m.getAttribute("data-label") || "",
                  played: m.getAttribute("data-puzzle-played") || "",
                  review: window.location.pathname + window.location.search,
                  added: new Date().toISOString().slice(0, 10), solved: false });
    });
    save(list);
  }

  // the puzzle page: the list, and an answer marks its puzzle solved
  function showPuzzles() {
    var list = load();
    var result = document.querySelector("[data-puzzle-result]");
    var puzzle = document.querySelector(".puzzle[data-puzzle-state]");
    if (result && puzzle) {
      var mine = find(list, puzzle.getAttribute("data-puzzle-state"));
      if (mine && result.getAttribute("data-puzzle-result") === "solved") {
        mine.solved = true;
        save(list);
      }
    }
    var ol = document.getElementById("my-puzzles");
    var none = document.getElementById("no-puzzles");
    if (!ol) return;
    ol.textContent = "";
    list.slice().reverse().forEach(function (p, i) {
      var li = document.createElement("li");
      li.className = p.solved ? "solved" : "open";
      li.setAttribute("data-my-puzzle", p.state);
      var a = document.createElement("a");
      a.href = "/puzzles?state=" + encodeURIComponent(p.state);
      a.textContent = "Puzzle " + (list.length - i) + (p.label ? " (your " + p.label + ")" : "");
      li.appendChild(a);
      li.appendChild(document.createTextNode(" · " + (p.added || "") +
        (p.solved ? " · solved" : "")));
      ol.appendChild(li);
    });
    if (none) none.hidden = list.length > 0;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var page = document.body.getAttribute("data-page");
    if (page === "review") keepMoments();
    if (page === "puzzles") showPuzzles();
  });
})();
