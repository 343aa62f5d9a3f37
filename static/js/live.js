// Live updates (docs/live.md). Loaded after htmx and its SSE extension on pages that hold a
// campaign's event stream. Its jobs:
//  1. Resume: the browser's EventSource sends Last-Event-ID on its own reconnects, but htmx's SSE
//     extension re-creates the EventSource after a hard close, which loses it. We remember the last
//     event id per stream and give re-created EventSources "?last_id=", so no entry is missed.
//  2. No duplicates: an entry whose card (#entry-<id>) is already on the page is not added again.
//  3. No lost typing: a live refresh of a region (hx-trigger="sse:…", the GM table's live:…)
//     waits while one of its form fields has focus, and runs when focus leaves the region (its own
//     saves re-render it anyway). While a section of the sheet is in edit mode (a form with
//     data-editing) every refresh of the sheet waits, and a roll's parts leave the sheet's
//     sections alone: that section's Save or Cancel re-renders the whole sheet.
//  4. Day headings: a live entry's day heading replaces the one below it of the same day.
//  5. Noticed: an element with data-notice (a GM's call or contest on the sheet, a reveal in the
//     log) that arrives live becomes a toast in view, counted in the tab title until it is shown
//     or dismissed. What was on the page when it loaded is not news, nor what scrolling back
//     through the log brings in.
//  6. One request per roll (docs/live.md, "the browser side"): a sheet fetches only what a roll
//     changed (#sheet-rolled), and not at all for the roll its own response already brought; the
//     GM table puts the roll its stream drew as a card's row on that card, and fetches only the
//     card of the character an event is about when the row can't say it all.
//  7. The table's rolls: on a sheet, other characters' rolls (``table`` events) as one-line items
//     in #table-rolls, counted in the tab title while the tab is hidden.
(function () {
  "use strict";

  var lastIds = {}; // stream URL without last_id → last event id received
  var heard = {}; // tokens of the entries this page's stream delivered

  function streamKey(url) {
    var parsed = new URL(url, window.location.href);
    parsed.searchParams.delete("last_id");
    return parsed;
  }

  htmx.createEventSource = function (url) {
    var parsed = streamKey(url);
    var key = parsed.toString();
    if (lastIds[key] !== undefined) {
      parsed.searchParams.set("last_id", lastIds[key]);
      url = parsed.toString();
    }
    var source = new EventSource(url, { withCredentials: true });
    source.addEventListener("entry", function (event) {
      if (event.lastEventId) {
        lastIds[key] = event.lastEventId;
        heard[event.lastEventId] = true;
      }
      // The GM's entries name their character: on the GM table, that card alone changes.
      var named = /data-character="(\d+)"/.exec(event.data);
      if (named) tableRow(named[1], event.lastEventId, event.data);
      // A session marker (docs/sessions.md): the GM table's session bar fetches itself, so a
      // second tab shows the session another started, the scene it marked. Not for the marker
      // the bar shows already (this tab's own click), nor while a title is being typed in it.
      var bar = document.getElementById("session-bar");
      if (bar && /data-marker/.test(event.data) &&
          bar.getAttribute("data-marker") !== event.lastEventId && !typing(bar)) {
        htmx.trigger(bar, "live:session");
      }
    });
    // The GM's sheet events carry the character's id (a player's carry the kind alone).
    source.addEventListener("sheet", function (event) { refreshCard(event.data); });
    // 7. The table's rolls on a sheet (?table=1): another character's roll, as the log shows it.
    source.addEventListener("table", function (event) { tableRoll(event.data); });
    return source;
  };

  function typing(region) {
    var field = document.activeElement;
    return region.contains(field) && field.value;
  }

  // The GM table's stream (?view=table) sends each roll drawn as its card's row: it goes on top of
  // the card's last rolls as it is, and nothing is fetched. A roll that spent resources changed
  // the card's figures too, and a card without a list (no rolls yet) has nowhere to put it: those
  // fetch the card's news, as does a row while a refresh of that card already waits.
  function tableRow(id, token, html) {
    var list = document.querySelector("[data-live-cards]");
    var rolls = document.getElementById("char-" + id + "-rolls");
    var card = document.getElementById("char-" + id);
    if (!list || !rolls || !card || !list.contains(card) || card.hasAttribute("data-news")) {
      refreshCard(id, token);
      return;
    }
    if (token && card.querySelector("#entry-" + token)) return; // shown already
    var parsed = document.createElement("template");
    parsed.innerHTML = html.trim();
    var row = parsed.content.firstElementChild;
    if (!row || row.tagName !== "LI" || row.hasAttribute("data-spent")) {
      refreshCard(id, token);
      return;
    }
    rolls.insertBefore(row, rolls.firstElementChild);
    keepShown(rolls);
    htmx.process(row);
  }

  // ``token``: the roll the event is about. A card that lists rolls then fetches only its news
  // (figures, resources, that roll; table_character ?entry=); the whole card otherwise, or when
  // news of two rolls waits (a refresh held back while a field has focus).
  function refreshCard(id, token) {
    var list = document.querySelector("[data-live-cards]");
    if (!list || !/^\d+$/.test(id)) return;
    var card = document.getElementById("char-" + id);
    if (!card || !list.contains(card)) {
      // A character the table doesn't show yet (created since it loaded): the list, this once.
      htmx.trigger(list, "live:list");
      return;
    }
    if (token && card.querySelector("#entry-" + token)) return; // shown already
    // The card's own quick roll is on its way: its answer is the card again, this roll likely
    // on top; once it is in, fetch the news only if it isn't.
    if (token && card.querySelector("[data-quick-roll].htmx-request")) {
      quickNews[id] = token;
      return;
    }
    var waiting = card.getAttribute("data-news");
    var news = token && card.querySelector("[data-keep]") && waiting === null ? token : "";
    card.setAttribute("data-news", news);
    htmx.trigger(card, "live:card");
  }

  var quickNews = {}; // card id → the token of a roll heard while its quick roll was on its way
  function quickDone(event) {
    var card = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest(".table-character");
    var id = card ? card.id.replace("char-", "") : null;
    if (!id || quickNews[id] === undefined) return;
    var token = quickNews[id];
    delete quickNews[id];
    // After the swap (the new card is in the page): the roll may be on it already.
    setTimeout(function () { refreshCard(id, token); }, 0);
  }
  document.addEventListener("htmx:afterRequest", quickDone);
  // The card comes back whole after a quick roll: focus goes back to the Roll that was pressed
  // (its button was disabled while busy, so htmx's own focus keeping can't find it).
  var quickPressed = null;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-quick-roll] button[name=row]");
    if (button) quickPressed = button.id;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var card = event.target;
    if (!quickPressed || !card.classList || !card.classList.contains("table-character")) return;
    var button = document.getElementById(quickPressed);
    if (!button || !card.contains(button)) return;
    quickPressed = null;
    button.focus();
  });

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt.hasAttribute || !elt.hasAttribute("data-news")) return;
    var token = elt.getAttribute("data-news");
    elt.removeAttribute("data-news");
    if (token) event.detail.parameters.entry = token;
  });

  // A roll went on top of a list of last rolls (a card's news, a row its stream drew): keep as
  // many as the page shows (data-keep).
  function keepShown(rolls) {
    var keep = rolls && rolls.getAttribute && Number(rolls.getAttribute("data-keep"));
    while (keep && rolls.children.length > keep) rolls.removeChild(rolls.lastElementChild);
  }
  document.addEventListener("htmx:oobAfterSwap", function (event) { keepShown(event.detail.target); });

  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var message = event.detail;
    if (message.type === "entry" && message.lastEventId &&
        document.getElementById("entry-" + message.lastEventId)) {
      event.preventDefault();
    }
  });

  // 4. Day headings (docs/roll-log.md): a live entry arrives with its day's heading. Keep the first
  //    heading of each day, the one above the newest entry, and drop the repeat below it; once a
  //    newer day has begun on an open page, an older "Today" or "Yesterday" says its date instead.
  //    Session headings the same way: a live entry brings its session's (and scene's) heading, and
  //    a repeat below it, within the same day, goes.
  function mergeDays(list) {
    var first = null;
    var previous = null;
    var session = null;
    Array.prototype.slice.call(list.children).forEach(function (item) {
      if (item.classList.contains("log-session")) {
        var key = item.getAttribute("data-session");
        if (session === key) item.parentNode.removeChild(item);
        else session = key;
        return;
      }
      if (!item.classList.contains("log-day")) return;
      var day = item.getAttribute("data-day");
      if (previous && previous.getAttribute("data-day") === day) {
        item.parentNode.removeChild(item);
        return;
      }
      var time = item.querySelector("time");
      if (first && time && item.getAttribute("data-full")) {
        // ISO dates parse as UTC midnights: their difference is a whole number of days.
        var gap = (Date.parse(first.getAttribute("data-day")) - Date.parse(day)) / 86400000;
        var label = time.textContent;
        if ((label === "Today" && gap >= 1) || (label === "Yesterday" && gap >= 2)) {
          time.textContent = item.getAttribute("data-full");
        }
      }
      first = first || item;
      previous = item;
      session = null; // a new day repeats its session's heading
    });
  }
  document.addEventListener("htmx:sseMessage", function (event) {
    var list = event.target;
    if (list && list.classList && list.classList.contains("log-days")) mergeDays(list);
  });

  function setStatus(text) {
    document.querySelectorAll("[data-live-status]").forEach(function (status) {
      status.textContent = text;
      status.hidden = false;
    });
  }
  document.addEventListener("htmx:sseOpen", function () { setStatus("Live: new rolls appear as they happen."); });
  document.addEventListener("htmx:sseError", function () { setStatus("Live updates interrupted; reconnecting…"); });

  function sectionOpen(region) {
    return region.querySelector("[data-editing]") !== null;
  }

  function editing(region) {
    var active = document.activeElement;
    return sectionOpen(region) ||
      (active && region.contains(active) && active.matches("input, select, textarea"));
  }

  // 6. A roll of this sheet's character arrived: fetch what it changed (#sheet-rolled), unless
  //    it is on the page already — the roll made here, whose response brought it. While a roll
  //    or a contest action of this page is on its way, the answer decides: the entry may be in it.
  var waiting = null; // the #sheet-rolled fetch held back until this page's request answers

  function ownRequest() {
    return document.querySelector("#roll-dialog .htmx-request, #gm-prompts .htmx-request");
  }

  function heldRolled(region, trigger) {
    if (!region.hasAttribute("data-live-rolled")) return false;
    var token = trigger.detail && trigger.detail.lastEventId;
    if (token && document.getElementById("entry-" + token)) return true;
    if (ownRequest()) {
      waiting = { region: region, token: token };
      return true;
    }
    return false;
  }

  document.addEventListener("htmx:afterRequest", function () {
    if (!waiting || ownRequest()) return;
    var held = waiting;
    waiting = null;
    if (!held.token || !document.getElementById("entry-" + held.token)) {
      htmx.trigger(held.region, "sse:entry", { lastEventId: held.token });
    }
  });

  // A section in edit mode keeps what is typed: a roll's out-of-band parts leave it alone (its
  // Save or Cancel re-renders the whole sheet, spent resources included).
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var sheet = document.getElementById("sheet");
    if (sheet && sheet.contains(target) && target.classList.contains("sheet-section") &&
        sectionOpen(sheet)) {
      event.preventDefault();
    }
  });

  document.addEventListener("htmx:confirm", function (event) {
    var trigger = event.detail.triggeringEvent;
    var region = event.detail.elt;
    // The GM table's refreshes (live:card, live:list) wait like a stream's while a field has focus.
    if (!trigger || (trigger.type.indexOf("sse:") !== 0 && trigger.type.indexOf("live:") !== 0)) {
      return;
    }
    if (trigger.type === "sse:entry" && heldRolled(region, trigger)) {
      event.preventDefault();
      return;
    }
    // A call or contest a roll of this sheet's character answered (the event names the roll,
    // after the roll's own entry event): the roll's response, or the rolled parts fetched for
    // it, bring the prompts.
    var cause = region.hasAttribute("data-rolled-part") && trigger.detail &&
      String(trigger.detail.data || "").split(" ")[1];
    if (cause && heard[cause]) {
      event.preventDefault();
      return;
    }
    if (editing(region)) {
      event.preventDefault();
      region.setAttribute("data-live-stale", trigger.type);
    }
  });

  document.addEventListener("focusout", function (event) {
    var region = event.target.closest && event.target.closest("[data-live-stale]");
    if (region && !region.contains(event.relatedTarget) && !sectionOpen(region)) {
      var kind = region.getAttribute("data-live-stale");
      region.removeAttribute("data-live-stale");
      htmx.trigger(region, kind);
    }
  });

  var seen = {}; // ids of the notices already on the page or already shown
  var baseTitle = document.title;
  var unread = 0;

  function notices(root) {
    var found = root.matches && root.matches("[data-notice][id]") ? [root] : [];
    return found.concat(Array.prototype.slice.call(root.querySelectorAll("[data-notice][id]")));
  }

  var unseenRolls = 0; // the table's rolls that landed while the tab was hidden

  function showCount() {
    var n = unread + unseenRolls;
    document.title = n ? "(" + n + ") " + baseTitle : baseTitle;
  }

  function count(change) {
    unread = Math.max(0, unread + change);
    showCount();
  }

  // The character's thumbnail from a card the server drew for this member, who holds one only
  // where they may read the character: a new element, with only its same-site address copied.
  function portraitOf(root) {
    var found = root.querySelector("img.portrait");
    var src = found && found.getAttribute("src");
    if (!src || src.charAt(0) !== "/" || src.charAt(1) === "/") return null;
    var img = document.createElement("img");
    img.className = "portrait portrait-row";
    img.src = src;
    img.alt = ""; // the name is beside it
    img.width = 24;
    img.height = 24;
    return img;
  }

  // A title's words without its avatar's initials.
  function textOf(element) {
    var copy = element.cloneNode(true);
    Array.prototype.slice.call(copy.querySelectorAll(".portrait")).forEach(function (avatar) {
      avatar.parentNode.removeChild(avatar);
    });
    return copy.textContent;
  }

  // 7. One line per roll of the table: who and what, the outcome, a link to the card. Built from
  //    the card the server sent (text only: nothing of it is inserted as HTML).
  function tableRoll(html) {
    var strip = document.getElementById("table-rolls");
    var list = strip && strip.querySelector("[data-table-rolls]");
    var card = new DOMParser().parseFromString(html, "text/html").querySelector("article.entry");
    if (!list || !card) return;
    var title = card.querySelector("h3");
    var outcome = card.querySelector(".outcome");
    var link = card.querySelector("a.permalink");
    var item = document.createElement("li");
    var kind = /outcome-(\w+)/.exec(card.className);
    if (kind) item.className = "outcome-" + kind[1];
    var what = document.createElement("a");
    what.href = link ? link.getAttribute("href") : "#";
    what.textContent = title ? textOf(title).replace(/\s+/g, " ").trim() : "A roll";
    var result = document.createElement("strong");
    result.textContent = outcome ? outcome.textContent.trim() : "";
    var face = portraitOf(card);
    if (face) {
      item.appendChild(face);
      item.appendChild(document.createTextNode(" "));
    }
    item.appendChild(what);
    item.appendChild(document.createTextNode(" "));
    item.appendChild(result);
    list.insertBefore(item, list.firstChild);
    while (list.children.length > 3) list.removeChild(list.lastElementChild);
    strip.hidden = false;
    if (document.hidden) {
      unseenRolls += 1;
      showCount();
    }
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && unseenRolls) {
      unseenRolls = 0;
      showCount();
    }
  });

  document.addEventListener("click", function (event) {
    if (!event.target.closest("[data-table-rolls-close]")) return;
    var strip = document.getElementById("table-rolls");
    strip.hidden = true;
    strip.querySelector("[data-table-rolls]").textContent = "";
  });

  function toast(element) {
    var box = document.getElementById("notices");
    if (!box) return;
    var id = element.id;
    var item = document.createElement("div");
    item.className = "notice";
    var text = document.createElement("p");
    text.textContent = element.getAttribute("data-notice");
    var show = document.createElement("button");
    show.type = "button";
    show.textContent = "Show";
    var dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "link";
    dismiss.textContent = "Dismiss";
    function close() {
      if (item.parentNode) {
        item.parentNode.removeChild(item);
        count(-1);
      }
    }
    show.addEventListener("click", function () {
      close();
      var target = document.getElementById(id);
      if (target) {
        target.setAttribute("tabindex", "-1");
        target.scrollIntoView({ block: "center" });
        target.focus({ preventScroll: true });
      }
    });
    dismiss.addEventListener("click", close);
    var face = portraitOf(element);
    if (face) item.appendChild(face);
    item.appendChild(text);
    item.appendChild(show);
    item.appendChild(dismiss);
    box.appendChild(item);
    count(1);
  }

  notices(document).forEach(function (element) { seen[element.id] = true; });
  // Entries that scrolling back brings in ("Older rolls", li.older) were written before the page
  // opened: never news, so never a toast nor read out. Marked seen before they are swapped in.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail.elt;
    if (!elt || !elt.closest || !elt.closest("li.older")) return;
    var holder = document.createElement("template");
    holder.innerHTML = event.detail.serverResponse || "";
    notices(holder.content).forEach(function (element) { seen[element.id] = true; });
  });
  document.addEventListener("htmx:load", function (event) {
    notices(event.detail.elt).forEach(function (element) {
      if (!seen[element.id]) {
        seen[element.id] = true;
        toast(element);
      }
    });
  });
})();
