/**
 * A throwaway PostgreSQL cluster for tests: initdb in a temporary folder, one server on a free
 * loopback port, run as an unprivileged user (PostgreSQL refuses to run as root), removed on stop.
 * Never touches a system service. The binaries come from Debian's `postgresql` package (or
 * QUAYSIDE_PG_BIN); `postgresAvailable()` says why not where they are missing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PostgresCluster {
  /** Connection URL of the cluster's default `postgres` database. */
  url: string;
  port: number;
  /** Creates a fresh database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /**
   * Stops the server as an operator or a failover would, `pg_ctl stop -m fast` (clients are
   * told 57P01 and disconnected) or `-m immediate` (no goodbye, as in a crash); keeps its data.
   */
  halt(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts the halted server again on the same port and data. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

const SUPERUSER = 'quayside';

function binDir(): string | null {
  const fromEnv = process.env.QUAYSIDE_PG_BIN;
  if (fromEnv) return fs.existsSync(path.join(fromEnv, 'initdb')) ? fromEnv : null;
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs
      .readdirSync(root)
      .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  const config = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const dir = config.status === 0 ? config.stdout.trim() : '';
  return dir && fs.existsSync(path.join(dir, 'initdb')) ? dir : null;
}

/** null when a cluster can be started here, else the reason. */
export function postgresAvailable(): string | null {
  return binDir() ? null : 'PostgreSQL server binaries not found (apt-get install postgresql)';
}

/** The unprivileged account to run as when we are root: `postgres` if present, else `nobody`. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    const id = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (id.status === 0 && gid.status === 0)
      return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('Running as root and no unprivileged account (postgres, nobody) exists');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function chownTree(dir: string, user: { uid: number; gid: number }): void {
  fs.chownSync(dir, user.uid, user.gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) chownTree(full, user);
    else fs.chownSync(full, user.uid, user.gid);
  }
}

async function waitUntilAccepting(
  bin: string,
  port: number,
  socketDir: string,
  server: ChildProcess,
) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`postgres exited with code ${server.exitCode}`);
    const probe = spawnSync(path.join(bin, 'pg_isready'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      SUPERUSER,
      '-q',
    ]);
    if (probe.status === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`postgres did not accept connections on port ${port} (sockets in ${socketDir})`);
}

export interface PostgresClusterOptions {
  /**
   * Commits wait for their WAL write (`synchronous_commit=on`): a test that stops the server
   * with `-m immediate` and counts accepted writes needs it; others save the time.
   */
  durableCommits?: boolean;
}

/** Starts a new cluster; call `stop()` when done (it also removes the folder). */
export async function startPostgres(
  options: PostgresClusterOptions = {},
): Promise<PostgresCluster> {
  const bin = binDir();
  if (!bin) throw new Error(postgresAvailable()!);
  const user = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-pg-'));
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  if (user) chownTree(dir, user);
  const spawnOptions = { ...(user ?? {}), cwd: dir, env: { ...process.env, LC_ALL: 'C' } };

  const init = spawnSync(
    path.join(bin, 'initdb'),
    [
      '-D',
      dataDir,
      '-U',
      SUPERUSER,
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ],
    { ...spawnOptions, encoding: 'utf8' },
  );
  if (init.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }

  const port = await freePort();
  // Durability off: a test cluster is thrown away, and fsync costs seconds per test file.
  const launch = () =>
    spawn(
      path.join(bin, 'postgres'),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        `synchronous_commit=${options.durableCommits ? 'on' : 'off'}`,
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
      ],
      { ...spawnOptions, stdio: ['ignore', 'ignore', 'pipe'] },
    );
  let log = '';
  let server: ChildProcess;
  const startServer = async () => {
    server = launch();
    server.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    await waitUntilAccepting(bin, port, dir, server);
  };

  try {
    await startServer();
  } catch (error) {
    server!.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n${log}`);
  }

  const url = (database: string) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  return {
    url: url('postgres'),
    port,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad database name ${name}`);
      const created = spawnSync(
        path.join(bin, 'createdb'),
        ['-h', '127.0.0.1', '-p', String(port), '-U', SUPERUSER, name],
        { encoding: 'utf8' },
      );
      if (created.status !== 0) throw new Error(`createdb failed: ${created.stderr}`);
      return url(name);
    },
    async halt(mode) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      const stopped = spawnSync(
        path.join(bin, 'pg_ctl'),
        ['stop', '-D', dataDir, '-m', mode, '-w', '-t', '30'],
        { ...spawnOptions, encoding: 'utf8' },
      );
      if (stopped.status !== 0) throw new Error(`pg_ctl stop failed: ${stopped.stderr}`);
      await exited;
    },
    async resume() {
      await startServer();
    },
    async stop() {
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        // SIGINT is PostgreSQL's "fast shutdown": disconnect clients, stop at once.
        server.kill('SIGINT');
        const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
