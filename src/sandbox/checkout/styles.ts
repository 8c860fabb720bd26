/**
 * The checkout page's stylesheet. Inline and static (no external assets: the page must work
 * offline and its hash goes into the Content-Security-Policy).
 */
export const CHECKOUT_STYLES = `
*,*::before,*::after{box-sizing:border-box}
:root{--ink:#1b1f24;--muted:#57606a;--line:#d0d7de;--accent:#0b6e4f;--accent-ink:#fff;--bad:#b42318;--bg:#f4f6f8}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid var(--line);border-radius:12px}
.badge{display:inline-block;margin:0 0 .5rem;padding:.1rem .6rem;border-radius:999px;background:#fff4ce;color:#5c4400;font-size:.8rem;font-weight:600}
h1{margin:0 0 1rem;font-size:1.25rem}
.summary{padding:1rem;margin-bottom:1.25rem;border-radius:8px;background:var(--bg)}
.amount{margin:0;font-size:2rem;font-weight:700;letter-spacing:-.01em}
.description{margin:.25rem 0 0;overflow-wrap:anywhere}
.reference{margin:.5rem 0 0;color:var(--muted);font-size:.85rem;overflow-wrap:anywhere}
fieldset{margin:0;padding:0;border:0;min-width:0}
legend{padding:0;margin-bottom:.5rem;font-weight:600}
.methods{display:grid;grid-template-columns:1fr 1fr;gap:.5rem;margin-bottom:1rem}
.method{display:flex;gap:.5rem;align-items:center;padding:.75rem;border:1px solid var(--line);border-radius:8px;cursor:pointer}
.method:has(input:checked){border-color:var(--accent);box-shadow:0 0 0 1px var(--accent)}
label{font-weight:600}
.hint{margin:.15rem 0 .5rem;color:var(--muted);font-size:.85rem}
input[type=tel],input[type=text]{width:100%;padding:.65rem .75rem;font:inherit;border:1px solid var(--line);border-radius:8px}
input[aria-invalid=true]{border-color:var(--bad)}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #2f81f7;outline-offset:2px}
button{width:100%;margin-top:.75rem;padding:.75rem;font:inherit;font-weight:600;color:var(--accent-ink);background:var(--accent);border:0;border-radius:8px;cursor:pointer}
button:disabled{opacity:.6;cursor:progress}
.secondary{color:var(--accent);background:#fff;border:1px solid var(--accent)}
.error{margin:.5rem 0 0;color:var(--bad);font-size:.9rem}
.status{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin-top:1.25rem;padding:1rem;border-radius:8px;background:var(--bg)}
.status p{flex:1;margin:0}
.status[data-state=success]{background:#e6f4ea}
.status[data-state=failed],.status[data-state=timeout]{background:#fdecea}
.spinner{width:1.25rem;height:1.25rem;border:3px solid var(--line);border-top-color:var(--accent);border-radius:50%;animation:spin 1s linear infinite}
.status:not([data-state=pending]) .spinner{display:none}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation:none}}
[hidden]{display:none!important}
`;
