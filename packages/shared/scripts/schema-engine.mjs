// Prisma's schema engine compiled to WebAssembly, driven over `pg`. Prisma 7's CLI would download a
// native engine from a host these machines cannot reach; the npm package needs no download
// (see docs/prisma.md).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pg from 'pg';
import * as bg from '@prisma/schema-engine-wasm/schema_engine_bg';
import { DriverAdapterError, bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';

let started = false;

/** Node 20 cannot `import` a .wasm file, so the module is instantiated by hand, once. */
export async function loadSchemaEngine() {
  if (!started) {
    const entry = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm');
    const bytes = await readFile(join(dirname(entry), 'schema_engine_bg.wasm'));
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { './schema_engine_bg.js': bg });
    bg.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    started = true;
  }
  return bg.SchemaEngine;
}

// Column types of the driver-adapter protocol (ColumnTypeEnum). The engine's introspection
// queries return only these Postgres types; everything else, including "char" (18) and
// name (19), is read as text.
const COLUMN_TYPE_BY_OID = { 16: 5, 20: 1, 21: 0, 23: 0, 26: 0, 1009: 71 };
const TEXT = 7;

/** Errors go back as Postgres errors so the engine reports the real message and code. */
async function asAdapterError(work) {
  try {
    return await work();
  } catch (error) {
    if (typeof error?.code !== 'string') throw error;
    const { code, severity, message, detail, column, hint } = error;
    throw new DriverAdapterError({ kind: 'postgres', code, severity, message, detail, column, hint });
  }
}

function queryable(client) {
  return {
    provider: 'postgres',
    adapterName: 'authz-pg-scripts',
    queryRaw: ({ sql, args }) =>
      asAdapterError(async () => {
        const result = await client.query({ text: sql, values: args, rowMode: 'array' });
        return {
          columnNames: result.fields.map((field) => field.name),
          columnTypes: result.fields.map((field) => COLUMN_TYPE_BY_OID[field.dataTypeID] ?? TEXT),
          rows: result.rows,
        };
      }),
    executeRaw: ({ sql, args }) => asAdapterError(async () => (await client.query(sql, args)).rowCount ?? 0),
  };
}

async function connectAdapter(url, clients) {
  const client = new pg.Client({ connectionString: url });
  clients.push(client);
  await client.connect();
  return {
    ...queryable(client),
    executeScript: (script) => asAdapterError(async () => void (await client.query(script))),
    startTransaction: async () => {
      await client.query('BEGIN');
      return {
        ...queryable(client),
        options: { usePhantomQuery: false },
        commit: async () => void (await client.query('COMMIT')),
        rollback: async () => void (await client.query('ROLLBACK')),
      };
    },
    // The engine keeps its connections until it is freed; close() below ends them all.
    dispose: async () => {},
  };
}

/**
 * An adapter factory whose main and shadow databases are both `url`, so the engine only ever
 * touches that (throwaway) database. Call close() when done: the engine never disconnects.
 */
export function pgAdapterFactory(url) {
  const clients = [];
  const factory = {
    provider: 'postgres',
    adapterName: 'authz-pg-scripts',
    connect: () => connectAdapter(url, clients),
    connectToShadowDb: () => connectAdapter(url, clients),
  };
  return {
    adapter: bindMigrationAwareSqlAdapterFactory(factory),
    close: () => Promise.all(clients.map((client) => client.end().catch(() => {}))),
  };
}
