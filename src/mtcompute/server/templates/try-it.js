(function () {
  "use strict";
  var form = document.getElementById("try-form");
  if (!form) { return; }
  var input = document.getElementById("try-input");
  var run = document.getElementById("try-run");
  var output = document.getElementById("try-output");
  var status = document.getElementById("try-status");
  var select = document.getElementById("try-example");
  // The API key field, on a server that needs a key: its value lives in this page only (never
  // stored, not even in the browser) and goes out as a bearer token with each Run.
  var key = document.getElementById("try-key");
  var url = form.getAttribute("data-execute-url");

  function show(kind, code, statusText, body) {
    status.className = "status status-" + kind;
    status.setAttribute("data-status", code);
    status.textContent = statusText;
    output.textContent = body;
    output.classList.remove("empty");
  }

  if (select) {
    select.addEventListener("change", function () {
      input.value = select.options[select.selectedIndex].getAttribute("data-input");
    });
  }
  input.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      run.click();
    }
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var headers = {"Content-Type": "application/json", "Accept": "application/json"};
    var typed = key ? key.value.trim() : "";
    if (/[^\x21-\x7e]/.test(typed)) {
      show("error", "bad-key", "Invalid API key",
        "An API key holds printable ASCII characters only, without spaces: check the key field.");
      key.focus();
      return;
    }
    if (typed) { headers.Authorization = "Bearer " + typed; }
    run.disabled = true;
    show("pending", "pending", "Running\u2026", "");
    fetch(url, {
      method: "POST",
      headers: headers,
      body: input.value,
      credentials: "omit",
      cache: "no-store"
    }).then(function (response) {
      return response.text().then(function (text) {
        var shown = text;
        try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (ignored) {}
        var label = "HTTP " + response.status +
          (response.statusText ? " " + response.statusText : "");
        if (response.status === 401) {
          label += typed ? ": the server refused this API key" :
            ": this server needs an API key, type it in the API key field";
        }
        show(response.ok ? "ok" : "error", String(response.status), label, shown);
      });
    }).catch(function (error) {
      show("error", "network-error", "Network error",
        "The request did not reach the server (" +
        (error && error.message ? error.message : String(error)) +
        "). Check your connection and try again.");
    }).then(function () {
      run.disabled = false;
    });
  });
})();
