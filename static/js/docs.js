// The interactive API documentation at /docs: Swagger UI from static/vendor, started
// from this file (no inline script, so the page keeps the site's
// Content-Security-Policy).
(function () {
  var el = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: el.dataset.openapiUrl,
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset]
      .filter(Boolean)
  });
})();
