// The roll panel as a dialog at the player's place (docs/rolling.md). Loaded on every page; it
// acts only where the page holds <dialog id="roll-dialog"> (the sheet). A Roll control loads the
// panel into #roll-panel (htmx); this opens the dialog around it, keeps the result in view after a
// roll, and when the dialog closes (Escape, the panel's Close, or a click on Close) empties it and
// gives focus back to the control that opened it, without moving the page.
(function () {
  "use strict";

  var opener = null; // the control that opened the panel, and the id of its row

  function dialog() {
    return document.getElementById("roll-dialog");
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var box = dialog();
    if (!box || box.contains(elt) || elt.getAttribute("hx-target") !== "#roll-panel") return;
    var row = elt.closest("[id]");
    opener = { elt: elt, row: row ? row.id : null, y: window.scrollY };
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var box = dialog();
    if (!box || event.detail.target.id !== "roll-panel") return;
    var panel = event.detail.target;
    if (!panel.children.length) {
      if (box.open) box.close(); // the panel's Close answered with nothing
      return;
    }
    if (!box.open) box.showModal();
  });

  // After htmx has settled the swap (and focused the panel's heading), the result comes into view.
  document.addEventListener("htmx:afterSettle", function (event) {
    var box = dialog();
    var id = event.detail.target.id;
    // The panel drawn again, or a roll's result alone (the form kept as it was).
    if (box && box.open && (id === "roll-panel" || id === "roll-result")) {
      // The headline first: the outcome in words is what the player looks for.
      var result = box.querySelector("#roll-result .result-headline") ||
        box.querySelector("#roll-result .entry");
      if (result) result.scrollIntoView({ block: "start" });
    }
    // The sheet re-rendered behind a closed dialog (someone's edit): focus back on the row's control.
    if (returnTo && (!box || !box.open) && document.activeElement === document.body) focusRow();
  });

  var returnTo = null; // the row whose control gets focus back, until the user moves on

  function focusRow() {
    var target = returnTo && returnTo.elt;
    if ((!target || !document.contains(target)) && returnTo && returnTo.row) {
      // The sheet re-rendered meanwhile: the same row's Roll control.
      var row = document.getElementById(returnTo.row);
      target = row && (row.querySelector(".roll-button") || row.querySelector("a.button, button"));
    }
    if (target && document.contains(target)) target.focus({ preventScroll: true });
    // The player's place on the sheet, as it was when the panel opened (a re-render behind the
    // dialog may have moved the page).
    if (returnTo) window.scrollTo({ top: returnTo.y, behavior: "instant" });
  }

  function giveFocusBack() {
    returnTo = opener;
    opener = null;
    focusRow();
  }

  // Once the user acts again, a late re-render no longer moves their focus.
  ["keydown", "pointerdown"].forEach(function (type) {
    document.addEventListener(type, function () {
      var box = dialog();
      if (!box || !box.open) returnTo = null;
    }, true);
  });

  // The moment of the roll (docs/rolling.md): a new result's dice tumble in and its headline lands
  // (CSS, .just-rolled). New means the result a roll or a follow-up just put in the panel, or an
  // entry the live stream just announced (in the log, or in a sheet's recent rolls fetched for
  // it) — never what a page loads with, older entries scrolled in, or a list a filter redraws.
  // Nothing moves when the user asks for reduced motion: the class isn't added (nor by the CSS).
  var calm = window.matchMedia("(prefers-reduced-motion: reduce)");
  var announced = {}; // card ids the stream announced whose dice haven't rolled in yet

  function rollIn(element) {
    if (!calm.matches) element.classList.add("just-rolled");
  }

  // The log takes an entry with sse-swap (htmx:sseBeforeMessage comes before its swap); a sheet
  // fetches its rolled parts on sse:entry (htmx:sseMessage comes before that request answers).
  function remember(event) {
    var message = event.detail;
    if (message && message.type === "entry" && message.lastEventId) {
      announced["entry-" + message.lastEventId] = true;
    }
  }
  document.addEventListener("htmx:sseBeforeMessage", remember);
  document.addEventListener("htmx:sseMessage", remember);

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (target.id !== "roll-panel" && target.id !== "roll-result") return;
    var result = target.id === "roll-result" ? target : target.querySelector("#roll-result");
    // On the new card and headline, not on #roll-result: htmx's settle step gives an element that
    // kept its id (#roll-result) its new attributes back after this event, dropping added classes.
    if (result) result.querySelectorAll(".entry, .result-headline").forEach(rollIn);
  });

  document.addEventListener("htmx:load", function (event) {
    var root = event.detail.elt;
    var cards = root.matches && root.matches(".entry[id]") ? [root] : [];
    cards = cards.concat(Array.prototype.slice.call(root.querySelectorAll(".entry[id]")));
    cards.forEach(function (card) {
      if (!announced[card.id] || card.closest("#roll-result")) return;
      delete announced[card.id]; // once: the sheet may re-render the same card again
      rollIn(card);
    });
  });

  document.addEventListener("DOMContentLoaded", function () {
    var box = dialog();
    if (!box) return;
    box.addEventListener("close", function () {
      document.getElementById("roll-panel").innerHTML = "";
      giveFocusBack();
    });
    // A click on the backdrop (outside the dialog's box) closes it too.
    box.addEventListener("click", function (event) {
      if (event.target === box) box.close();
    });
  });
})();
