/* Start Swagger UI (vendored) on the site's own OpenAPI document; nothing from other hosts. */
(function () {
  "use strict";
  var box = document.getElementById("swagger-ui");
  if (!box || typeof window.SwaggerUIBundle !== "function") return;
  window.SwaggerUIBundle({
    url: box.getAttribute("data-spec"),
    domNode: box,
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: -1,
    validatorUrl: null,
    tryItOutEnabled: false
  });
})();
