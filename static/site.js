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

  /* PLZ page: find a street in the lists of its zones (the lists work without this). */
  function setupStreetFilter() {
    var form = document.getElementById("street-filter");
    if (!form) return;
    var input = document.getElementById("street-query");
    var count = document.getElementById("street-count");
    var groups = form.parentNode.querySelectorAll(".street-zone");
    function key(text) { return text.trim().toLowerCase().replace(/ß/g, "ss"); }
    function apply() {
      var q = key(input.value);
      var found = {}, zones = 0;
      for (var g = 0; g < groups.length; g++) {
        var items = groups[g].querySelectorAll("li[data-street]");
        var shown = 0;
        for (var i = 0; i < items.length; i++) {
          var ok = !q || items[i].getAttribute("data-street").indexOf(q) !== -1;
          items[i].hidden = !ok;
          if (ok) { shown++; found[items[i].getAttribute("data-street")] = true; }
        }
        groups[g].hidden = shown === 0;
        if (shown) zones++;
      }
      var streets = Object.keys(found).length;
      if (!q) count.textContent = "";
      else if (!streets) count.textContent = "Keine Straße gefunden. Im Zweifel weiß es Ihr Wasserversorger.";
      else count.textContent = (streets === 1 ? "1 Straße" : streets + " Straßen") + " in " +
        (zones === 1 ? "1 Versorgungsgebiet" : zones + " Versorgungsgebieten");
    }
    form.hidden = false;
    input.addEventListener("input", apply);
    form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
    apply();
  }

  /* Search: suggest PLZ, places, zones and suppliers as one types. The index
     (/suchindex.json, built with the site) is loaded on first use only. A five-digit PLZ
     still goes through the form's own target, as it does without JavaScript. */
  function fold(text) {
    return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/ß/g, "ss");
  }

  var indexes = {};
  function loadIndex(url) {
    if (!indexes[url]) {
      indexes[url] = fetch(url).then(function (res) {
        if (!res.ok) throw new Error("HTTP " + res.status);
        return res.json();
      }).then(prepareIndex);
      indexes[url].catch(function () { delete indexes[url]; });
    }
    return indexes[url];
  }

  function prepareIndex(doc) {
    var names = {};
    var places = doc.orte.map(function (o) {
      o[1].forEach(function (i) { (names[i] = names[i] || []).push(o[0]); });
      return { name: o[0], key: fold(o[0]), plz: o[1], url: o[2] };
    });
    return {
      plz: doc.plz,
      names: names,
      places: places,
      zones: doc.gebiete.map(function (z) {
        return { id: z[0], name: z[1], key: fold(z[1]), supplier: doc.versorger[z[2]][1] };
      }),
      suppliers: doc.versorger.map(function (s) {
        return { id: s[0], name: s[1], key: fold(s[1]) };
      }),
      urls: doc.urls
    };
  }

  function fill(pattern, value) { return pattern.replace("{}", encodeURIComponent(value)); }

  /* Where `q` starts a word of `key` (0 = at the start), or -1. */
  function wordStart(key, q) {
    for (var i = key.indexOf(q); i !== -1; i = key.indexOf(q, i + 1)) {
      if (i === 0 || /[\s\-\/(.,]/.test(key.charAt(i - 1))) return i;
    }
    return -1;
  }

  function byName(list, q, limit) {
    var hits = [];
    list.forEach(function (item) {
      var at = wordStart(item.key, q);
      if (at !== -1) hits.push({ item: item, rank: at === 0 ? 0 : 1 });
    });
    hits.sort(function (a, b) {
      return a.rank - b.rank || a.item.key.length - b.item.key.length ||
        (a.item.key < b.item.key ? -1 : a.item.key > b.item.key ? 1 : 0);
    });
    return hits.slice(0, limit).map(function (h) { return h.item; });
  }

  function suggest(idx, typed) {
    var q = fold(typed.trim());
    var out = [];
    if (/^\d{1,5}$/.test(q)) {
      // "4103" is 04103: a leading zero is often left out.
      var exact = q.length === 4 ? "0" + q : q;
      idx.plz.forEach(function (plz) {
        if (plz.indexOf(q) === 0 || (q.length < 5 && plz.indexOf("0" + q) === 0)) {
          out.push({ plz: plz, first: plz === exact ? 0 : 1 });
        }
      });
      out.sort(function (a, b) { return a.first - b.first || (a.plz < b.plz ? -1 : 1); });
      return out.slice(0, 8).map(function (h) {
        var i = idx.plz.indexOf(h.plz);
        return {
          label: h.plz,
          detail: (idx.names[i] || []).join(", ") || "Postleitzahl",
          url: fill(idx.urls.plz, h.plz)
        };
      });
    }
    if (q.length < 2) return out;
    byName(idx.places, q, 6).forEach(function (p) {
      var one = p.plz.length === 1;
      out.push({
        label: p.name,
        detail: one ? "Ort, PLZ " + idx.plz[p.plz[0]] : "Ort, " + p.plz.length + " Postleitzahlen",
        url: one ? fill(idx.urls.plz, idx.plz[p.plz[0]]) : p.url
      });
    });
    byName(idx.zones, q, 4).forEach(function (z) {
      out.push({ label: z.name, detail: "Versorgungsgebiet, " + z.supplier,
                 url: fill(idx.urls.gebiet, z.id) });
    });
    byName(idx.suppliers, q, 3).forEach(function (s) {
      out.push({ label: s.name, detail: "Wasserversorger", url: fill(idx.urls.versorger, s.id) });
    });
    return out.slice(0, 10);
  }

  function setupSearch(form) {
    var input = form.querySelector("input[name=plz]");
    var row = form.querySelector(".search-row");
    if (!input || !row || !form.getAttribute("data-index")) return;
    var listId = input.id + "-vorschlaege";
    var list = document.createElement("ul");
    list.id = listId;
    list.className = "suggestions";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Vorschläge");
    list.hidden = true;
    var status = document.createElement("p");
    status.className = "sr";
    status.setAttribute("role", "status");
    var empty = document.createElement("p");
    empty.className = "search-empty";
    empty.hidden = true;
    row.parentNode.insertBefore(list, row.nextSibling);
    row.parentNode.insertBefore(empty, list.nextSibling);
    form.appendChild(status);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", listId);
    input.setAttribute("autocomplete", "off");

    var items = [];
    var active = -1;
    var index = null;
    function ready() {
      return loadIndex(form.getAttribute("data-index")).then(function (idx) {
        index = idx;
        return idx;
      });
    }
    function go(item) { window.location.href = item.url; }
    function draw() {
      list.textContent = "";
      items.forEach(function (item, i) {
        var li = document.createElement("li");
        li.id = listId + "-" + i;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", i === active ? "true" : "false");
        var label = document.createElement("span");
        label.className = "suggestion-label";
        label.textContent = item.label;
        var detail = document.createElement("span");
        detail.className = "suggestion-detail";
        detail.textContent = item.detail;
        li.appendChild(label);
        li.appendChild(document.createTextNode(" "));
        li.appendChild(detail);
        // mousedown, not click: the input keeps the focus and the list stays until chosen.
        li.addEventListener("mousedown", function (e) { e.preventDefault(); go(item); });
        list.appendChild(li);
      });
      var open = items.length > 0 && document.activeElement === input;
      list.hidden = !open;
      input.setAttribute("aria-expanded", open ? "true" : "false");
      if (active >= 0) input.setAttribute("aria-activedescendant", listId + "-" + active);
      else input.removeAttribute("aria-activedescendant");
      var typed = input.value.trim();
      status.textContent = !typed ? "" : items.length === 1 ? "1 Vorschlag" :
        items.length ? items.length + " Vorschläge" : "Keine Vorschläge";
    }
    function update() {
      items = index ? suggest(index, input.value) : [];
      active = -1;
      empty.hidden = true;
      draw();
    }
    input.addEventListener("focus", function () { ready().then(update, function () {}); });
    input.addEventListener("input", function () { ready().then(update, function () {}); });
    input.addEventListener("blur", function () {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        if (!items.length) return;
        e.preventDefault();
        var step = e.key === "ArrowDown" ? 1 : -1;
        active = (active + step + items.length + 1) % (items.length + 1);
        if (active === items.length) active = -1;
        draw();
      } else if (e.key === "Enter" && active >= 0) {
        e.preventDefault();
        go(items[active]);
      } else if (e.key === "Escape") {
        active = -1;
        list.hidden = true;
        input.setAttribute("aria-expanded", "false");
      }
    });
    form.addEventListener("submit", function (e) {
      var typed = input.value.trim();
      if (/^\d{5}$/.test(typed)) return;  // the form's own target: /suche?plz=...
      e.preventDefault();
      ready().then(function () {
        update();
        if (items.length) { go(items[0]); return; }
        empty.textContent = "Nichts gefunden zu „" + typed + "“. Geben Sie eine Postleitzahl " +
          "mit fünf Ziffern ein, oder suchen Sie Ihren Ort im Verzeichnis von A bis Z.";
        empty.hidden = false;
      }, function () { form.submit(); });
    });
  }

  /* Map: switch the view (PFAS-20, nitrate, hardness) in place; the links still lead to
     the page of each view, which is what they do without JavaScript. */
  function setupMap() {
    var box = document.getElementById("karte");
    if (!box) return;
    var links = document.querySelectorAll(".map-layers a[data-layer]");
    Array.prototype.forEach.call(links, function (link) {
      link.addEventListener("click", function (e) {
        e.preventDefault();
        var key = link.getAttribute("data-layer");
        var before = document.querySelector(".map-layers a[aria-current]");
        box.setAttribute("data-layer", key);
        Array.prototype.forEach.call(links, function (other) {
          if (other === link) other.setAttribute("aria-current", "page");
          else other.removeAttribute("aria-current");
        });
        Array.prototype.forEach.call(document.querySelectorAll("[data-for]"), function (part) {
          part.hidden = part.getAttribute("data-for") !== key;
        });
        if (before) document.title = document.title.replace(before.textContent, link.textContent);
        if (window.history && history.replaceState) history.replaceState(null, "", link.href);
      });
    });
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
  setupStreetFilter();
  setupAccessForm();
  setupValidationMessages();
  setupPrint();
  explainNotFound();
  setupMap();
  Array.prototype.forEach.call(document.querySelectorAll("form.search"), setupSearch);
})();
