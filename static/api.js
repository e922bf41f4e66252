/* The API reference's one script (the page carries no other: it stays light). Its examples
   show a key that does not work. Served by `trinkwasser serve --demo-key`, the page's
   demo-key address answers that server's key: put it in their place. Elsewhere (the built
   file, Netlify) it answers null and the notice that the key is an example stays. */
(function () {
  "use strict";

  function setupDemoKey() {
    var note = document.getElementById("beispielschluessel");
    var demo = document.getElementById("demoschluessel");
    if (!note || !demo || !window.fetch) return;
    var example = note.getAttribute("data-example-key");
    fetch(note.getAttribute("data-demo-key-url"), { cache: "no-store" }).then(function (res) {
      return res.ok ? res.json() : null;
    }).then(function (doc) {
      var key = doc && typeof doc.demo_key === "string" ? doc.demo_key : "";
      if (!key || !example) return;
      var main = document.querySelector("main");
      var walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
      for (var node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.data.indexOf(example) >= 0) node.data = node.data.split(example).join(key);
      }
      Array.prototype.forEach.call(document.querySelectorAll(".key-note"), function (e) {
        e.textContent = e.getAttribute("data-demo");
      });
      demo.querySelector(".demo-key").textContent = key;
      note.hidden = true;
      demo.hidden = false;
    }, function () {});
  }

  setupDemoKey();
})();
