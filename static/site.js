/* Trinkwasserdaten: small enhancements; every page works without this file. */
(function () {
  "use strict";

  /* Parameter register: filter rows by text, group and "has a limit". */
  function setupFilter() {
    var form = document.getElementById("filter");
    var table = document.getElementById("register");
    if (!form || !table) return;
    var text = document.getElementById("filter-text");
    var group = document.getElementById("filter-group");
    var limit = document.getElementById("filter-limit");
    var count = document.getElementById("filter-count");
    var rows = table.tBodies[0].rows;
    function apply() {
      var q = text.value.trim().toLowerCase();
      var shown = 0;
      for (var i = 0; i < rows.length; i++) {
        var r = rows[i];
        var ok = (!q || r.getAttribute("data-text").indexOf(q) !== -1) &&
          (!group.value || r.getAttribute("data-group") === group.value) &&
          (!limit.checked || r.getAttribute("data-limit") === "1");
        r.hidden = !ok;
        if (ok) shown++;
      }
      count.textContent = shown + " von " + rows.length + " Stoffen";
    }
    form.hidden = false;
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
    apply();
  }

  /* Access request: post JSON, show each validation error next to its field. */
  var MESSAGES = {
    missing: function () { return "Bitte ausfüllen."; },
    string_too_short: function (c) { return "Bitte mindestens " + c.min_length + " Zeichen eingeben."; },
    string_too_long: function (c) { return "Bitte höchstens " + c.max_length + " Zeichen eingeben."; },
    string_type: function () { return "Bitte als Text eingeben."; }
  };

  function fieldMessage(field, err) {
    if (field === "email" && err.type !== "missing" && err.type !== "string_too_long") {
      return "Bitte eine gültige E-Mail-Adresse angeben, zum Beispiel name@beispiel.de.";
    }
    var m = MESSAGES[err.type];
    return m ? m(err.ctx || {}) : (err.msg || "Bitte prüfen.");
  }

  function setupAccessForm() {
    var form = document.getElementById("antrag");
    if (!form) return;
    form.hidden = false;  // hidden without JavaScript: the page offers e-mail instead
    var status = document.getElementById("antrag-status");
    var fields = ["email", "zweck"];
    function clear() {
      fields.forEach(function (name) {
        var input = form.elements[name];
        var out = document.getElementById(name + "-error");
        input.removeAttribute("aria-invalid");
        out.textContent = "";
        out.hidden = true;
      });
      status.textContent = "";
      status.className = "status";
    }
    function show(kind, html) {
      status.className = "status status-" + kind;
      status.textContent = "";
      html.forEach(function (part) {
        var p = document.createElement("p");
        if (part.strong) {
          p.appendChild(document.createTextNode(part.text));
          var s = document.createElement("strong");
          s.id = part.id || "";
          s.textContent = part.strong;
          p.appendChild(s);
        } else {
          p.textContent = part.text;
        }
        status.appendChild(p);
      });
    }
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      clear();
      var body = { email: form.elements.email.value.trim(), zweck: form.elements.zweck.value.trim() };
      var button = form.querySelector("button[type=submit]");
      button.disabled = true;
      fetch(form.getAttribute("action"), {
        method: "POST",
        headers: { "Content-Type": "application/json", "Accept": "application/json" },
        body: JSON.stringify(body)
      }).then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (data) {
          return { status: res.status, data: data };
        });
      }).then(function (r) {
        if (r.status === 202 || r.status === 200 || r.status === 201) {
          var id = r.data.request_id || r.data.id || "";
          show("ok", [
            { text: "Danke! Ihr Antrag ist eingegangen. Ihre Antragsnummer: ", strong: id, id: "antrag-id" },
            { text: "Wir prüfen den Antrag und schicken den Schlüssel an " + body.email + "." }
          ]);
          form.reset();
          status.focus();
          return;
        }
        if (r.status === 422 && Array.isArray(r.data.detail)) {
          var first = null;
          r.data.detail.forEach(function (err) {
            var name = err.loc && err.loc[err.loc.length - 1];
            if (fields.indexOf(name) === -1) return;
            var input = form.elements[name];
            var out = document.getElementById(name + "-error");
            if (!out.hidden) return;  // keep the first problem per field
            out.textContent = fieldMessage(name, err);
            out.hidden = false;
            input.setAttribute("aria-invalid", "true");
            first = first || input;
          });
          if (first) { first.focus(); return; }
        }
        var msg = r.status === 429
          ? "Zu viele Anträge in kurzer Zeit. Bitte versuchen Sie es später noch einmal."
          : "Der Antrag konnte nicht gesendet werden (Fehler " + r.status + "). Bitte später noch einmal versuchen.";
        show("bad", [{ text: msg }]);
        status.focus();
      }).catch(function () {
        show("bad", [{ text: "Keine Verbindung zum Server. Bitte später noch einmal versuchen." }]);
      }).then(function () { button.disabled = false; });
    });
  }

  /* Not-found page: say whether the PLZ was malformed or just unknown. */
  function explainNotFound() {
    var title = document.getElementById("nf-title");
    var box = document.getElementById("nf-text");
    if (!title || !box) return;
    var m = /^\/plz\/([^/]*)\/?$/.exec(window.location.pathname);
    if (!m) return;
    var plz = decodeURIComponent(m[1]);
    var input = document.getElementById("plz");
    var lead = box.querySelector(".lead");
    if (/^\d{5}$/.test(plz)) {
      title.textContent = "PLZ nicht gefunden";
      lead.textContent = "Für die Postleitzahl " + plz + " haben wir noch keine Daten.";
    } else {
      title.textContent = "Keine gültige Postleitzahl";
      lead.textContent = "„" + plz + "“ ist keine Postleitzahl: Sie hat genau fünf Ziffern.";
    }
    if (input) input.value = plz.slice(0, 5);
  }

  /* Browsers word their own validation messages in their UI language: give German ones.
     A field may name its own with data-msg-missing or data-msg-format; its title is the
     fallback for a pattern. */
  function germanMessage(input) {
    var v = input.validity;
    if (v.valueMissing) return input.getAttribute("data-msg-missing") || "Bitte füllen Sie dieses Feld aus.";
    if (v.patternMismatch || v.typeMismatch || v.badInput) {
      return input.getAttribute("data-msg-format") || input.getAttribute("title") ||
        (input.type === "email" ? "Bitte eine gültige E-Mail-Adresse angeben, zum Beispiel name@beispiel.de." : "Bitte prüfen Sie die Eingabe.");
    }
    if (v.tooShort) return "Bitte mindestens " + input.minLength + " Zeichen eingeben.";
    if (v.tooLong) return "Bitte höchstens " + input.maxLength + " Zeichen eingeben.";
    return "Bitte prüfen Sie die Eingabe.";
  }

  function setupValidationMessages() {
    var fields = document.querySelectorAll("input, textarea, select");
    Array.prototype.forEach.call(fields, function (input) {
      input.addEventListener("invalid", function () {
        input.setCustomValidity("");  // ask the browser afresh, then word it
        if (!input.validity.valid) input.setCustomValidity(germanMessage(input));
      });
      input.addEventListener("input", function () { input.setCustomValidity(""); });
    });
  }

  /* Printing opens the value tables behind charts (CSS does it where the browser can). */
  function setupPrint() {
    var opened = [];
    window.addEventListener("beforeprint", function () {
      opened = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"), function (d) {
        d.open = true;
        return true;
      });
    });
    window.addEventListener("afterprint", function () {
      opened.forEach(function (d) { d.open = false; });
      opened = [];
    });
  }

  setupFilter();
  setupAccessForm();
  setupValidationMessages();
  setupPrint();
  explainNotFound();
})();
