/** The page's frame; the script fills it from the JSON API. The CSRF token rides in a meta tag. */
export function dashboardPage(csrf: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="${csrf}">
<title>pesakit operations</title>
<link rel="stylesheet" href="/dashboard.css">
<script type="module" src="/dashboard.js"></script>
</head>
<body>
<header><h1>pesakit operations</h1><p id="status" role="status"></p></header>
<main>
<section>
<h2>Find a record</h2>
<form id="find" aria-label="Find a record"><input name="reference" aria-label="Merchant reference" placeholder="Merchant reference" required maxlength="128">
<button type="submit">Show</button></form>
<div id="found"></div>
</section>
<section><h2>Records by product and status</h2><table id="totals"></table></section>
<section>
<h2>Records reaching a final status, per hour</h2>
<p><button type="button" data-hours="24" aria-pressed="true">24 hours</button>
<button type="button" data-hours="168" aria-pressed="false">7 days</button></p>
<div id="chart"></div>
</section>
<section><h2>Mobile operators, last 24 hours</h2><table id="providers"></table></section>
<section><h2>Waiting for a person: needs_review and unknown</h2><div id="review"></div></section>
<section><h2>Open records, oldest first</h2><table id="open"></table></section>
<section><h2>Dead effects (a handler gave up)</h2><table id="dead-effects"></table></section>
<section><h2>Dead callbacks</h2><table id="dead-callbacks"></table></section>
</main>
</body>
</html>
`;
}

export const DASHBOARD_STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 1rem; color: #1b1f24; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.05rem; margin-top: 1.6rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #d8dde3; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
article { border: 1px solid #d8dde3; border-radius: 6px; margin: 0.6rem 0; padding: 0.6rem; }
pre { background: #f4f6f8; max-height: 20rem; overflow: auto; padding: 0.5rem; }
button[aria-pressed="true"] { font-weight: bold; }
form { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin-top: 0.4rem; }
#status { color: #6a737d; }
.bar-success { fill: #2f9e44; } .bar-failed { fill: #e03131; } .axis { font-size: 10px; fill: #6a737d; }
`;
