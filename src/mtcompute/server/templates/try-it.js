(function () {
  "use strict";
  var form = document.getElementById("try-form");
  if (!form) { return; }
  var input = document.getElementById("try-input");
  var run = document.getElementById("try-run");
  var output = document.getElementById("try-output");
  var status = document.getElementById("try-status");
  var select = document.getElementById("try-example");
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
    run.disabled = true;
    show("pending", "pending", "Running\u2026", "");
    fetch(url, {
      method: "POST",
      headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: input.value
    }).then(function (response) {
      return response.text().then(function (text) {
        var shown = text;
        try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (ignored) {}
        var label = "HTTP " + response.status +
          (response.statusText ? " " + response.statusText : "");
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
