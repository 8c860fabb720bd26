/**
 * Escaping for the hosted checkout page. Every value the page shows came from a merchant's
 * request (`description`, `callback_url`), so each one is untrusted text.
 */

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char] ?? char);
}

/**
 * Serialises data for a `<script type="application/json">` block. `<`, `>` and `&` become
 * `\u003c`-style escapes so no value can close the script element (`</script>`) or open a
 * comment; U+2028/U+2029 are escaped because older parsers treat them as line breaks.
 */
export function serializeJsonForScript(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
