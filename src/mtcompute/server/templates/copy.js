(function () {
  "use strict";
  // Every code block's Copy button: shown when the script runs, copies the block's text.
  function copied(button, label) {
    button.textContent = label;
    window.setTimeout(function () { button.textContent = "Copy"; }, 2000);
  }
  function fallback(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (ignored) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }
  var buttons = document.querySelectorAll(".code > button.copy");
  Array.prototype.forEach.call(buttons, function (button) {
    var pre = button.parentNode.querySelector("pre");
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = pre.textContent;
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () {
          copied(button, "Copied");
        }, function () {
          copied(button, fallback(text) ? "Copied" : "Press Ctrl+C");
        });
      } else {
        copied(button, fallback(text) ? "Copied" : "Press Ctrl+C");
      }
    });
  });
})();
