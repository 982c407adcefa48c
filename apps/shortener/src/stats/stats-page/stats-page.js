// The public statistics page's script (served by the shortener; no inline script, so the
// page's CSP allows scripts from its own origin only). The page arrives with its name and
// totals filled in by the server (for the page's query, in UTC unless it names a zone); this
// reads <page>/data with the page's query in the viewer's time zone, and draws the charts with
// Chart.js (served by the shortener too), replacing the "Loading the charts…" line.
(() => {
  const params = new URLSearchParams(location.search);
  const interval = params.get("interval") || "day";
  if (!params.has("timezone")) {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) params.set("timezone", zone);
  }
  params.set("interval", interval);
  const number = new Intl.NumberFormat();
  const text = (id, value) => {
    document.getElementById(id).textContent = value;
  };
  for (const link of document.querySelectorAll("#intervals a")) {
    const next = new URLSearchParams(params);
    next.set("interval", link.dataset.interval);
    link.href = `?${next}`;
    if (link.dataset.interval === interval) link.setAttribute("aria-current", "page");
  }

  async function load(query) {
    const response = await fetch(`${location.pathname.replace(/\/$/, "")}/data?${query}`);
    return { ok: response.ok, body: await response.json().catch(() => null) };
  }

  function render(stats) {
    text("name", stats.name);
    document.title = `Visits of ${stats.name}`;
    text(
      "range",
      `${new Date(stats.from).toLocaleString()} – ${new Date(stats.to).toLocaleString()} (${stats.timezone})`,
    );
    for (const element of document.querySelectorAll("[data-figure]")) {
      element.textContent = number.format(stats.totals[element.dataset.figure]);
      element.dataset.value = String(stats.totals[element.dataset.figure]);
    }
    Chart.defaults.animation = false;
    new Chart(document.getElementById("timeseries"), {
      type: "bar",
      data: {
        labels: stats.timeseries.map((bucket) =>
          bucket.start.slice(0, interval === "hour" ? 16 : 10).replace("T", " "),
        ),
        datasets: [
          {
            label: "people",
            data: stats.timeseries.map((b) => b.humans),
            backgroundColor: "#2563eb",
            stack: "v",
          },
          {
            label: "bots",
            data: stats.timeseries.map((b) => b.visits - b.humans),
            backgroundColor: "#9ca3af",
            stack: "v",
          },
        ],
      },
      options: {
        responsive: true,
        scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
    for (const section of document.querySelectorAll("[data-list]")) {
      const rows = stats[section.dataset.list];
      const table = section.querySelector("table");
      for (const row of rows) {
        const tr = table.insertRow();
        tr.insertCell().textContent = row.value === "" ? "(unknown)" : row.value;
        const count = tr.insertCell();
        count.textContent = number.format(row.visits);
        count.dataset.value = String(row.visits);
      }
      if (rows.length === 0) table.insertRow().insertCell().textContent = "No visits yet";
      new Chart(section.querySelector("canvas"), {
        type: "bar",
        data: {
          labels: rows.map((row) => (row.value === "" ? "(unknown)" : row.value)),
          datasets: [{ label: "visits", data: rows.map((row) => row.visits), backgroundColor: "#2563eb" }],
        },
        options: {
          indexAxis: "y",
          responsive: true,
          plugins: { legend: { display: false } },
          scales: { x: { beginAtZero: true, ticks: { precision: 0 } } },
        },
      });
    }
    document.getElementById("loading").hidden = true;
    document.querySelector("main").removeAttribute("aria-busy");
    document.body.dataset.ready = "true";
  }

  (async () => {
    let answer = await load(params);
    if (!answer.ok && answer.body && params.has("timezone")) {
      // A zone the server does not list: show UTC rather than nothing.
      params.set("timezone", "UTC");
      answer = await load(params);
    }
    if (!answer.ok) {
      const error = document.getElementById("error");
      error.hidden = false;
      error.textContent = answer.body?.error ?? "These statistics cannot be shown.";
      document.getElementById("loading").hidden = true;
      document.querySelector("main").removeAttribute("aria-busy");
      document.body.dataset.ready = "error";
      return;
    }
    render(answer.body);
  })();
})();
