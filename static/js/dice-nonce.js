// The roller's own contribution to the dice (issue 37, docs/verifiable-dice.md): every request that
// rolls carries a fresh `nonce` from this browser, which the server feeds into the VRF's input. The
// server can't choose it, so it can't pick among inputs until it likes the dice. Loaded on every
// page; it acts only for forms marked `data-dice` (the roll panel, follow-ups, contest rolls, the
// GM table's quick rolls). Without JavaScript the server makes the nonce itself.
//
// It also keeps each nonce it sent (issue 49), by the entry the roll's answer names
// (`data-roll-nonce` on the answer's nonce line), so the permalink's Verify can compare the
// proof's nonce with this browser's (static/js/verify-dice.js). Reading the answer costs no
// request: a roll stays one request (docs/performance.md).
(function () {
  "use strict";

  // 16 random bytes as 32 lowercase hex characters (the spec allows 8–64 of [A-Za-z0-9_-]).
  function nonce() {
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  function diceForm(elt) {
    return elt && elt.closest ? elt.closest("form[data-dice]") : null;
  }

  var NONCES = "poolside-nonces";
  var KEPT = 2000; // nonces kept: the newest rolls this browser made

  function remember(entry, sent) {
    try {
      var all = JSON.parse(localStorage.getItem(NONCES) || "{}");
      // "e:" first: an all-digit token would be an integer key, which objects order first.
      delete all["e:" + entry];
      all["e:" + entry] = sent;
      var names = Object.keys(all);
      for (var i = 0; i < names.length - KEPT; i++) delete all[names[i]];
      localStorage.setItem(NONCES, JSON.stringify(all));
    } catch (error) {
      // Storage full or refused (a private window): the roll stands; Verify says it can't compare.
    }
  }

  function sentNonce(config) {
    var params = config && config.parameters;
    if (!params) return "";
    var value = typeof params.get === "function" ? params.get("nonce") : params.nonce;
    return typeof value === "string" ? value : "";
  }

  // The answer to a roll this browser sent a nonce with: the entry it names gets that nonce —
  // the one sent, never the one the answer shows.
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    var config = detail.requestConfig;
    if (!detail.successful || !config || config.verb !== "post" || !diceForm(config.elt)) return;
    var sent = sentNonce(config);
    if (!sent || !detail.xhr) return;
    var answer = new DOMParser()
      .parseFromString(detail.xhr.responseText, "text/html")
      .querySelector("[data-roll-nonce]");
    if (!answer) return;
    remember(answer.getAttribute("data-roll-nonce"), sent);
  });

  // Plain submits, and htmx's too: htmx collects the form's fields after this capture-phase
  // listener has run, so the field is there either way. A new value on every submit: a roll
  // sent again must not reuse the last one.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-dice]")) return;
    var field = form.querySelector("input[name=nonce]");
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "nonce";
      form.appendChild(field);
    }
    field.value = form.dataset.retryNonce || nonce();
  }, true);

  // An htmx POST that no submit event preceded (a button's own hx-post, a trigger on change).
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    var form = diceForm(detail.elt);
    if (detail.verb !== "post" || !form) return;
    detail.parameters.nonce = form.dataset.retryNonce || nonce();
  });

  // The nonce is also the roll's idempotency key (docs/api.md, "Retrying a roll"): when a roll's
  // answer didn't arrive (no connection, a server error, the database out of reach), the next
  // try sends the same one, so a roll the server made after all is shown, never rolled twice.
  // Any answer that arrived — a result or a refusal — ends it: the next roll is a new one.
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    var form = diceForm(detail.elt);
    if (!form || !detail.requestConfig || detail.requestConfig.verb !== "post") return;
    var status = detail.xhr ? detail.xhr.status : 0;
    var sent = detail.requestConfig.parameters && detail.requestConfig.parameters.nonce;
    if ((status === 0 || status >= 500) && sent) {
      form.dataset.retryNonce = sent;
    } else {
      delete form.dataset.retryNonce;
    }
  });
})();
