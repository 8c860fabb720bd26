// Loaded with `--import` in the Node 24 test run. better-sqlite3 12.x aborts the process under
// Node 24 when a Database or Statement is garbage-collected (its destructor calls
// RemoveEnvironmentCleanupHook after the environment is gone; fixed in 13.x, which needs
// Node 22+). A merchant on Node 24 therefore uses better-sqlite3 13, and so does this run:
// every resolution of better-sqlite3, from `import` or `require`, is sent to the 13.x copy in
// PESAKIT_BETTER_SQLITE3_DIR.
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const target = process.env.PESAKIT_BETTER_SQLITE3_DIR;
if (!target) throw new Error('PESAKIT_BETTER_SQLITE3_DIR is not set');
const targetUrl = pathToFileURL(target.endsWith('/') ? target : `${target}/`).href;
const installed = '/node_modules/better-sqlite3/';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const at = resolved.url.lastIndexOf(installed);
    if (at === -1 || resolved.url.startsWith(targetUrl)) return resolved;
    return { ...resolved, url: targetUrl + resolved.url.slice(at + installed.length) };
  },
});
