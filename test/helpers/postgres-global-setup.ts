import type { TestProject } from 'vitest/node';
import { startCluster } from '../../soak/postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of a PostgreSQL server the tests may create databases on. */
    postgresUrl: string;
  }
}

/**
 * Starts a throwaway PostgreSQL cluster for the whole run (unless DATABASE_URL points at one)
 * and removes it afterwards. The SQL reference store is tested on a real server (DESIGN.md
 * decision 7), so a missing server is a failure, never a silent skip.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const existing = process.env['DATABASE_URL'];
  if (existing) {
    project.provide('postgresUrl', existing);
    return async () => {};
  }
  const cluster = await startCluster();
  project.provide('postgresUrl', cluster.url);
  return cluster.stop;
}
