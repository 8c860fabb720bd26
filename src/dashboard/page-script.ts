/**
 * The page's only script, served as a file (the CSP allows no inline script). It builds every
 * element with textContent, so nothing from the store is ever parsed as HTML. No template
 * literals or backslashes inside: it is one.
 */
export const DASHBOARD_SCRIPT = `
const csrf = document.querySelector('meta[name="csrf-token"]').content;
const $ = (id) => document.getElementById(id);
let hours = 24;

function el(tag, text, attrs) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  return node;
}

function table(id, headings, rows) {
  const row = (cells, tag) => {
    const tr = el('tr');
    for (const cell of cells) {
      const td = cell instanceof Node ? el(tag) : el(tag, cell, typeof cell === 'number' ? { class: 'n' } : {});
      if (cell instanceof Node) td.append(cell);
      tr.append(td);
    }
    return tr;
  };
  const none = el('tr');
  none.append(el('td', 'None.', { colspan: String(headings.length) }));
  $(id).replaceChildren(row(headings, 'th'), ...(rows.length ? rows.map((cells) => row(cells, 'td')) : [none]));
}

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const json = await response.json();
  if (!response.ok) throw new Error(json.message || response.statusText);
  return json;
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');
const ref = (record) => record.merchantReference;

// A record travels in the body or the query, never the path: '.' and '..' are references too.
function act(label, path, body) {
  const button = el('button', label, { type: 'button' });
  button.addEventListener('click', () => api(path, body).then(refresh, show));
  return button;
}

const show = (error) => ($('status').textContent = error.message);

function svg(tag, attrs, text) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// Stacked bars, success under failed, one per hour; the tallest hour fills the height.
function chart(finals) {
  const width = 960;
  const height = 180;
  const slots = finals.length / 2;
  const step = width / slots;
  const totals = Array.from({ length: slots }, (_, slot) => finals[slot * 2].count + finals[slot * 2 + 1].count);
  const max = Math.max(1, ...totals);
  const picture = svg('svg', { viewBox: '0 0 ' + width + ' ' + (height + 20), role: 'img',
    'aria-label': 'Records reaching success (green) or failed (red) per hour' });
  for (let slot = 0; slot < slots; slot += 1) {
    let top = height;
    for (const bucket of [finals[slot * 2], finals[slot * 2 + 1]]) {
      if (bucket.count === 0) continue;
      const tall = (bucket.count / max) * height;
      top -= tall;
      const bar = svg('rect', { x: slot * step + 1, y: top, width: Math.max(1, step - 2), height: tall,
        class: 'bar-' + bucket.status });
      bar.append(svg('title', {}, when(bucket.hour) + ': ' + bucket.count + ' ' + bucket.status));
      picture.append(bar);
    }
  }
  const first = when(finals[0].hour);
  const last = when(finals[finals.length - 1].hour) + '  (top: ' + max + ' an hour; green success, red failed)';
  picture.append(svg('text', { x: 0, y: height + 14, class: 'axis' }, first),
    svg('text', { x: width, y: height + 14, 'text-anchor': 'end', class: 'axis' }, last));
  $('chart').replaceChildren(picture);
}

function evidenceOf(record, open) {
  const evidence = el('details');
  evidence.append(el('summary', 'Evidence: the answer, callbacks, checks'));
  const load = () => {
    if (!evidence.open || evidence.dataset.loaded) return;
    evidence.dataset.loaded = 'yes';
    api('/api/records/evidence?reference=' + encodeURIComponent(ref(record))).then((found) => {
      const shown = { review: found.record.review, answer: found.record.lastPayload,
        callbacks: found.callbacks, checks: found.checks };
      evidence.append(el('pre', JSON.stringify(shown, null, 2)));
      for (const callback of found.callbacks.filter((c) => c.status === 'dead')) {
        evidence.append(act('Requeue callback ' + callback.id, '/api/callbacks/requeue', { id: callback.id }));
      }
    }, show);
  };
  evidence.addEventListener('toggle', load);
  if (open) evidence.open = true;
  return evidence;
}

function recordCard(record, open) {
  const card = el('article', null, { 'data-ref': ref(record) });
  card.append(el('strong', ref(record) + ' · ' + record.status));
  card.append(el('p', record.product + ' ' + record.flow + ', ' + record.amount + ' TZS, ' +
    (record.msisdn || 'no MSISDN') + ', since ' + when(record.createdAt)));
  if (record.review) card.append(el('p', record.review.reason + ': ' + record.review.message));
  card.append(evidenceOf(record, open));
  if (record.effect && record.effect.status === 'dead') {
    card.append(act('Retry effect', '/api/records/retry-effect', { reference: ref(record) }));
  }
  if (record.status !== 'needs_review') return card;
  const form = el('form', null, { 'aria-label': 'Resolve ' + ref(record) });
  const outcome = el('select', null, { name: 'outcome' });
  for (const value of ['success', 'failed']) outcome.append(el('option', value, { value }));
  const note = el('input', null, { name: 'note', placeholder: 'What you checked (required)', required: '' });
  const by = el('input', null, { name: 'by', placeholder: 'Your name' });
  form.append(outcome, note, by, el('button', 'Resolve', { type: 'submit' }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    api('/api/records/resolve', { reference: ref(record), outcome: outcome.value, note: note.value,
      by: by.value }).then(refresh, show);
  });
  card.append(form);
  return card;
}

// A list read a page at a time: the first with every refresh, the next ones on request.
async function paged(id, query, render, empty) {
  const target = $(id);
  const first = await api('/api/records?' + query);
  const more = el('button', 'More', { type: 'button', 'data-more': id });
  const place = (page) => {
    more.remove();
    if (page.next) {
      more.onclick = () => api('/api/records?' + query + '&after=' + encodeURIComponent(page.next))
        .then((next) => { render(next.records, target); place(next); }, show);
      target.after(more);
    }
  };
  target.replaceChildren();
  for (const stale of document.querySelectorAll('[data-more="' + id + '"]')) stale.remove();
  if (first.records.length === 0 && empty) target.append(empty());
  render(first.records, target);
  place(first);
}

const openHeadings = ['merchant reference', 'product', 'status', 'amount', 'since'];
const openRows = (records, target) => {
  if (!target.querySelector('th')) table(target.id, openHeadings, []);
  const none = target.querySelector('td[colspan]');
  if (none && records.length) none.parentNode.remove();
  for (const r of records) {
    const tr = el('tr');
    for (const cell of [ref(r), r.product, r.status, r.amount, when(r.createdAt)]) tr.append(el('td', cell));
    target.append(tr);
  }
};

const found = $('find');
found.addEventListener('submit', (event) => {
  event.preventDefault();
  const reference = found.elements.reference.value;
  api('/api/records/evidence?reference=' + encodeURIComponent(reference))
    .then((answer) => $('found').replaceChildren(recordCard(answer.record, true)), show);
});

async function refresh() {
  const summary = await api('/api/summary?hours=' + hours);
  table('totals', ['product', 'status', 'records'],
    summary.counts.map((c) => [c.product, c.status, c.count]));
  chart(summary.finals);
  table('providers', ['operator', 'finals', 'success rate', 'median time to final'],
    summary.providers.map((p) => [p.provider || '(none)', p.finals,
      Math.round(p.successRate * 100) + '%', Math.round(p.medianMsToFinal / 1000) + ' s']));
  await paged('review', 'status=needs_review,unknown',
    (records, target) => target.append(...records.map((r) => recordCard(r, false))), () => el('p', 'None.'));
  await paged('open', 'status=initiating,pending,unknown', openRows, null);
  table('dead-effects', ['merchant reference', 'status', 'attempts', 'last error', ''],
    summary.deadEffects.map((r) => [ref(r), r.status, r.effect.attempts, r.effect.lastError,
      act('Retry', '/api/records/retry-effect', { reference: ref(r) })]));
  table('dead-callbacks', ['received', 'payment reference', 'attempts', 'last error', ''],
    summary.deadCallbacks.map((c) => [when(c.receivedAt), c.claim.paymentReference, c.attempts,
      c.lastError, act('Requeue', '/api/callbacks/requeue', { id: c.id })]));
  $('status').textContent = 'Updated ' + new Date().toLocaleTimeString() +
    (summary.oldestOpenAt ? '; oldest open record since ' + when(summary.oldestOpenAt) : '');
}

for (const button of document.querySelectorAll('button[data-hours]')) {
  button.addEventListener('click', () => {
    hours = Number(button.dataset.hours);
    for (const other of document.querySelectorAll('button[data-hours]')) {
      other.setAttribute('aria-pressed', String(other === button));
    }
    refresh().catch(show);
  });
}
refresh().catch(show);
setInterval(() => refresh().catch(show), 30000);
`;
