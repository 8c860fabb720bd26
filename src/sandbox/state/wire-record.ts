import type { z } from 'zod';

/** A record typed from its loose wire schema, without the index signature: every field named. */
export type WireRecord<S extends z.ZodObject> = z.output<z.ZodObject<S['shape']>>;
