// Request feedback for every htmx action (issue: "never silence"). Loaded after htmx on every page.
//  1. Busy: while a request is in flight, the control that sent it is disabled and marked
//     aria-busy (a second click can't send it twice; CSS shows a busy cursor and a spinner).
//  2. Failure: when the server answers with an error htmx doesn't swap, or the network drops, a
//     message says what happened and what to do, in the page's alert region (#request-status) —
//     inside the roll panel's dialog while it is open.
(function () {
  "use strict";

  function region() {
    return document.getElementById("request-status");
  }

  // Outside an open modal dialog (the roll panel) the page is inert: the message goes where the
  // user is, into the dialog, and back into the page once no dialog is open.
  function place(box) {
    var open = document.querySelector("dialog[open]");
    var home = open || document.getElementById("main");
    if (home && box.parentNode !== home) home.insertBefore(box, home.firstChild);
  }

  function say(text) {
    var box = region();
    if (!box) return;
    place(box);
    box.querySelector("[data-request-status-text]").textContent = text;
    box.hidden = false;
  }

  function clear() {
    var box = region();
    if (box) box.hidden = true;
  }

  // The buttons a request disables: the form's submit buttons, or the element itself.
  function controls(elt) {
    if (elt.tagName === "FORM") {
      return Array.prototype.slice.call(elt.querySelectorAll("button[type=submit], button:not([type])"));
    }
    return elt.tagName === "BUTTON" || elt.tagName === "INPUT" ? [elt] : [];
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    elt.setAttribute("aria-busy", "true");
    controls(elt).forEach(function (button) {
      if (!button.disabled) {
        button.disabled = true;
        button.setAttribute("data-busy-disabled", "");
      }
    });
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    elt.removeAttribute("aria-busy");
    controls(elt).forEach(function (button) {
      if (button.hasAttribute("data-busy-disabled")) {
        button.disabled = false;
        button.removeAttribute("data-busy-disabled");
      }
    });
    if (event.detail.successful) clear();
  });

  var STATUS_WORDS = {
    403: "You aren't allowed to do that (any more): your role in this campaign may have changed. Reload the page.",
    404: "That isn't there any more: it may have been removed. Reload the page.",
    409: "That couldn't be done now: something changed a moment ago. Reload the page and try again.",
    429: "Too many attempts in a short time. Wait a minute, then try again.",
    503: "Poolside can't reach its database just now: nothing was saved, and a roll was not rolled yet. Try again in a few seconds."
  };

  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    say(STATUS_WORDS[status] ||
      "Something went wrong on the server (error " + status + "). Nothing you see may have been saved: reload the page and try again.");
  });

  document.addEventListener("htmx:sendError", function () {
    say("Couldn't reach Poolside: check your connection. Your last change may not have been saved; a roll sent again from the same form is the same roll, never a second one.");
  });

  document.addEventListener("htmx:timeout", function () {
    say("Poolside took too long to answer. Reload the page to see whether your last change was saved.");
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-request-status-close]")) clear();
  });

  // Copy buttons (data-copy="<id of a readonly input>", e.g. the GM's invite links): hidden in
  // the HTML, shown once this script runs; without JavaScript the link is selectable text.
  function showCopyButtons(root) {
    root.querySelectorAll("button[data-copy][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function copied(button, ok) {
    var text = button.querySelector("[data-copy-text]") || button;
    text.textContent = ok ? "Copied" : "Press Ctrl+C";
    window.setTimeout(function () { text.textContent = "Copy"; }, 2000);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    var field = button && document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    // Copying the selection works on plain http too; the Clipboard API (secure pages only) is
    // the second try.
    field.select();
    if (document.execCommand("copy")) {
      copied(button, true);
    } else if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(
        function () { copied(button, true); },
        function () { copied(button, false); });
    } else {
      copied(button, false);
    }
  });

  document.addEventListener("DOMContentLoaded", function () { showCopyButtons(document); });
  document.addEventListener("htmx:afterSettle", function (event) { showCopyButtons(event.detail.elt); });
})();
