/**
 * Vitest global setup of the `postgres` project: one throwaway cluster for the whole run; each
 * test service then gets a fresh database in it (test/support/store-kinds.ts).
 */
import type { TestProject } from 'vitest/node';
import { startPostgres, type PostgresCluster } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

let cluster: PostgresCluster | undefined;

export async function setup(project: TestProject) {
  cluster = await startPostgres();
  project.provide('postgresUrl', cluster.url);
}

export async function teardown() {
  await cluster?.stop();
}
