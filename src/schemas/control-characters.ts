import { z } from 'zod';

// Text a merchant supplies (a payee's name, a row's or a record's reference, metadata) holds no
// control character: C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F), Unicode's `Cc`.
// None is something a person types. NUL ends a string in C and PostgreSQL text cannot hold it; a
// line feed or carriage return splits a log line or a CSV row; ESC, and C1's CSI, drive terminals.
// C1 in text is nearly always UTF-8 decoded as Latin-1 or Windows-1252 somewhere upstream (a
// curly apostrophe read that way leaves U+0080 and U+0099 behind): the name a payee would see
// is already garbled. Refused, never stripped: a name changed in silence is not the name asked for.
const controlCharacter = /\p{Cc}/u;
const TAB = 0x09;

export interface ControlCharacterRule {
  /** Free text may hold a tab (pasted from a sheet); a name or a reference never. @default false */
  tab?: boolean;
}

/**
 * The first control character of `text` the rule refuses, with its 1-based position counted in
 * characters as a person counts them (`U+0000 at position 2`); `undefined` when there is none.
 */
export function findControlCharacter(
  text: string,
  rule: ControlCharacterRule = {},
): string | undefined {
  if (!controlCharacter.test(text)) return undefined;
  let position = 0;
  for (const character of text) {
    position += 1;
    const code = character.codePointAt(0) as number;
    if (controlCharacter.test(character) && !(rule.tab === true && code === TAB)) {
      return `${codePoint(code)} at position ${position}`;
    }
  }
  return undefined;
}

/** `text` with each control character written as `\u0000`, so that a message can quote it. */
export function showControlCharacters(text: string): string {
  return text.replace(/\p{Cc}/gu, (character) =>
    codePoint(character.codePointAt(0) as number).replace('U+', '\\u'),
  );
}

/**
 * The rule as a zod check, placed before any `.trim()` so that the position is in the text as
 * given; `message` words what was found the way the field's own messages read.
 */
export function withoutControlCharacters(
  message: (found: string) => string,
  rule: ControlCharacterRule = {},
): z.core.$ZodCheck<string> {
  return z.check<string>((ctx) => {
    const found = findControlCharacter(ctx.value, rule);
    if (found !== undefined) {
      ctx.issues.push({ code: 'custom', input: ctx.value, message: message(found) });
    }
  });
}

function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
