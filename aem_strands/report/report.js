// The dialog list of the AEM report: page, sort, filter, expand. Data comes from the #data block;
// every text goes in through textContent, never as markup.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var all = data.dialogs, PAGE = 50;
  all.forEach(function (d) {  // a passing turn comes as [turn_no, "a"|"r"] to keep the file small
    d.turns = d.turns.map(function (t) {
      return t.length === 2 ? [t[0], "pass", t[1] === "a" ? "action" : "response", null, null, null, null, [], null, null] : t;
    });
  });
  var state = { q: "", status: "", reason: "", key: null, dir: 1, page: 0 };
  var tbody = document.querySelector("#dialog-table tbody");
  var open = {};
  var LABEL = { pass: "pass", root: "root cause", cascade: "inherited", missing: "missing", extra: "extra", na: "not judged" };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function haystack(d) {
    if (!d._text) d._text = [d.id, d.reason || "", d.group || "", d.words.join(" ")].join(" ").toLowerCase();
    return d._text;
  }
  function filtered() {
    var q = state.q.toLowerCase();
    return all.filter(function (d) {
      if (state.status === "fail" && d.pass) return false;
      if (state.status === "pass" && !d.pass) return false;
      if (state.reason && d.reason !== state.reason) return false;
      return !q || haystack(d).indexOf(q) >= 0;
    });
  }
  function sorted(rows) {
    if (!state.key) return rows;  // the page comes failing first already
    var k = state.key, dir = state.dir;
    return rows.slice().sort(function (a, b) {
      var x = a[k], y = b[k];
      if (x === y) return 0;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * dir;
    });
  }
  function strip(d) {
    var s = el("span", "strip");
    d.turns.forEach(function (t) {
      var box = el("span", "t " + t[1], t[0]);
      box.title = "turn " + t[0] + ": " + LABEL[t[1]] + (t[3] ? " (" + t[3] + ")" : "") + (t[4] ? " <- turn " + t[4] : "");
      s.appendChild(box);
    });
    d.skipped.forEach(function (i) {
      var box = el("span", "t skipped", "·");
      box.title = "optional gold turn " + (i + 1) + " skipped";
      s.appendChild(box);
    });
    return s;
  }
  function details(d, span) {
    var tr = el("tr", "details"), td = el("td");
    td.colSpan = span;
    d.words.forEach(function (w) { td.appendChild(el("p", d.pass ? "ok" : "fail", w)); });
    var table = el("table"), head = el("tr");
    ["turn", "status", "reason", "cascade of", "problems (field: gold → predicted, method, score)", "latency ms"].forEach(function (h) { head.appendChild(el("th", null, h)); });
    table.appendChild(head);
    d.turns.forEach(function (t) {
      var row = el("tr");
      row.appendChild(el("td", null, t[0] + " " + (t[2] || "")));
      var status = el("td"); status.appendChild(el("span", "t " + t[1], LABEL[t[1]])); row.appendChild(status);
      row.appendChild(el("td", null, t[3] || (t[9] ? "(" + t[9] + ")" : "")));
      row.appendChild(el("td", "link", t[4] ? "turn " + t[4] + ": " + (t[5] || "") : ""));
      var problems = el("td");
      if (t[6]) problems.appendChild(el("div", null, t[6]));
      t[7].forEach(function (p) {
        var score = p[4] === null || p[4] === undefined ? "" : " " + Number(p[4]).toFixed(2);
        problems.appendChild(el("div", null, p[0] + ": " + p[1] + " → " + p[2] + " (" + p[3] + score + ")"));
      });
      row.appendChild(problems);
      row.appendChild(el("td", null, t[8] === null || t[8] === undefined ? "" : t[8]));
      table.appendChild(row);
    });
    td.appendChild(table);
    if (d.skipped.length) td.appendChild(el("p", null, "skipped optional gold turns (index): " + d.skipped.join(", ")));
    tr.appendChild(td);
    return tr;
  }
  function render() {
    var rows = sorted(filtered());
    var pages = Math.max(1, Math.ceil(rows.length / PAGE));
    state.page = Math.min(state.page, pages - 1);
    var start = state.page * PAGE, page = rows.slice(start, start + PAGE);
    var span = document.querySelectorAll("#dialog-table thead th").length;
    tbody.textContent = "";
    page.forEach(function (d) {
      var tr = el("tr", "dialog");
      tr.dataset.id = d.id;
      tr.appendChild(el("td", "verdict " + (d.pass ? "ok" : "fail"), d.pass ? "PASS" : "FAIL"));
      tr.appendChild(el("td", "id", d.id));
      tr.appendChild(el("td", null, d.score === null ? "n/a" : Number(d.score).toFixed(2)));
      tr.appendChild(el("td", null, d.roots));
      tr.appendChild(el("td", null, d.cascades));
      if (data.by) tr.appendChild(el("td", null, d.group));
      var s = el("td"); s.appendChild(strip(d)); tr.appendChild(s);
      tr.appendChild(el("td", "words", d.words[0]));
      tr.addEventListener("click", function () { open[d.id] = !open[d.id]; render(); });
      tbody.appendChild(tr);
      if (open[d.id]) tbody.appendChild(details(d, span));
    });
    var shown = rows.length ? (start + 1) + "–" + (start + page.length) : "0";
    document.getElementById("count").textContent = shown + " of " + rows.length + (rows.length !== all.length ? " (filtered from " + all.length + ")" : "") + (all.length === 1 ? " dialog" : " dialogs");
    document.getElementById("page").textContent = "page " + (state.page + 1) + " of " + pages;
    document.getElementById("prev").disabled = state.page === 0;
    document.getElementById("next").disabled = state.page >= pages - 1;
  }
  var reasons = {};
  all.forEach(function (d) { if (d.reason) reasons[d.reason] = (reasons[d.reason] || 0) + 1; });
  var select = document.getElementById("reason");
  Object.keys(reasons).sort().forEach(function (r) {
    var o = el("option", null, r + " (" + reasons[r] + ")"); o.value = r; select.appendChild(o);
  });
  var hash = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
    var i = kv.indexOf("=");
    if (i > 0) hash[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
  });
  ["q", "status", "reason"].forEach(function (name) {
    var input = document.getElementById(name);
    if (hash[name]) { state[name] = hash[name]; input.value = hash[name]; }
    input.addEventListener("input", function () { state[name] = input.value; state.page = 0; render(); });
  });
  document.querySelectorAll("#dialog-table th[data-key]").forEach(function (th) {
    th.addEventListener("click", function () {
      var k = th.dataset.key;
      state.dir = state.key === k ? -state.dir : 1;
      state.key = k;
      document.querySelectorAll("#dialog-table th").forEach(function (h) { h.classList.remove("asc", "desc"); });
      th.classList.add(state.dir > 0 ? "asc" : "desc");
      render();
    });
  });
  document.getElementById("prev").addEventListener("click", function () { state.page -= 1; render(); });
  document.getElementById("next").addEventListener("click", function () { state.page += 1; render(); });
  if (all.length && !all[0].pass) open[all[0].id] = true;  // the first failing dialog opens with its details
  render();
  document.body.dataset.ready = "1";
})();
