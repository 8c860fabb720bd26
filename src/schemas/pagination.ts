import { z } from 'zod';

/** Page selection for list endpoints (Laravel paginator parameters). */
export const pageRequestSchema = z.object({
  page: z
    .number({ error: 'The page must be a number.' })
    .int({ error: 'The page must be an integer.' })
    .min(1, { error: 'The page must be at least 1.' })
    .optional(),
  per_page: z
    .number({ error: 'The per_page must be a number.' })
    .int({ error: 'The per_page must be an integer.' })
    .min(1, { error: 'The per_page must be at least 1.' })
    .max(100, { error: 'The per_page may not be greater than 100.' })
    .optional(),
});
export type PageRequest = z.infer<typeof pageRequestSchema>;

export function paginatorSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
  });
}
