import { parseArgs } from 'node:util';
import pino from 'pino';
import { DEFAULT_HOST, DEFAULT_PORT, startService } from '../../service';
import { defaultServiceDataDir } from '../../service/data-dir';
import {
  DEFAULT_SEED,
  DEFAULT_SIM_SPEED,
  KEY_FILE,
  startEmbeddedService,
} from '../../embedded/service-with-world';
import type { CommandCode } from '../command';
import { configuredFeeds } from '../feeds-file';
import { emptyFeedsConfig } from '../../service/feeds/runtime';
import { DATABASE_OPTIONS, databaseOption } from '../database-option';
import { OutgoingMail } from '../../service/email/outgoing-mail';

function parsePositive(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`Invalid --${name} ${raw}`);
  return value;
}

/** A domain name (RFC 1123 labels), as the host part of the inbox addresses. */
function parseMailDomain(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  if (raw.length > 253 || !new RegExp(`^${label}(?:\\.${label})*$`, 'i').test(raw))
    throw new Error(
      `Invalid --mail-domain ${raw}: expected a domain name such as mail.example.com`,
    );
  return raw.toLowerCase();
}

function parsePort(raw: string | undefined, name = 'port'): number {
  if (raw === undefined) return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid --${name} ${raw}`);
  return port;
}

export const serveCommand: CommandCode = {
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        sim: { type: 'boolean', default: false },
        // Carrier, terminal and AIS sources (YAML); also QUAYSIDE_FEEDS or <data-dir>/feeds.yaml.
        feeds: { type: 'string' },
        'sim-speed': { type: 'string' },
        seed: { type: 'string' },
        // Local use and tests only: lets webhooks target loopback/private addresses over http.
        'allow-private-webhooks': { type: 'boolean', default: false },
        // Email submissions: an SMTP listener for track+<token>@host addresses (off by default).
        'smtp-port': { type: 'string' },
        // The domain whose mail reaches that listener (shown in each account's inbox address).
        'mail-domain': { type: 'string' },
        // Outgoing mail (delivery orders): smtp[s]://user:password@host[:port]; also QUAYSIDE_SMTP_URL.
        'smtp-url': { type: 'string' },
        // PostgreSQL instead of the data folder's SQLite file (also QUAYSIDE_DATABASE_URL).
        ...DATABASE_OPTIONS,
      },
      strict: true,
    });
    const port = parsePort(values.port);
    const smtpPort =
      values['smtp-port'] === undefined ? undefined : parsePort(values['smtp-port'], 'smtp-port');
    const dataDir = values['data-dir'] ?? defaultServiceDataDir();
    const database = databaseOption(values);
    const logger = pino({ level: process.env.QUAYSIDE_LOG_LEVEL ?? 'warn' });
    const mailDomain = parseMailDomain(values['mail-domain'] ?? process.env.QUAYSIDE_MAIL_DOMAIN);
    const smtpUrl = values['smtp-url'] ?? process.env.QUAYSIDE_SMTP_URL;
    const outgoingMail = smtpUrl ? OutgoingMail.parse(smtpUrl) : undefined;
    const config = {
      allowPrivateWebhooks: values['allow-private-webhooks'],
      ...(mailDomain ? { mailDomain } : {}),
      ...(outgoingMail ? { outgoingMail } : {}),
    };
    let service: { close(): Promise<void> };
    if (values.sim && values.feeds) {
      throw new Error('--feeds and --sim cannot be combined: --sim brings its own simulated feeds');
    }
    if (values.sim) {
      // The simulated world beside the service, sharing one scaled clock.
      const simSpeed = parsePositive(values['sim-speed'], 'sim-speed', DEFAULT_SIM_SPEED);
      const seed = Math.floor(parsePositive(values.seed, 'seed', DEFAULT_SEED));
      const embedded = await startEmbeddedService({
        dataDir,
        database,
        host: values.host ?? DEFAULT_HOST,
        port,
        simSpeed,
        seed,
        logger,
        config,
        smtpPort,
      });
      service = embedded;
      console.log(`Quayside service listening on ${embedded.baseUrl}`);
      console.log(`Simulated world: seed ${seed}, ${simSpeed}x real time`);
      // Shown once, when created; later starts reuse the key kept in the data folder.
      if (embedded.apiKeyCreated) console.log(`API key: ${embedded.apiKey}`);
      else console.log(`API key: the one shown at first start (kept in ${dataDir}/${KEY_FILE})`);
      if (embedded.service.smtpPort !== undefined)
        console.log(`Email submissions: SMTP on port ${embedded.service.smtpPort}`);
    } else {
      // Validated as a whole before anything starts; without a file only TEST numbers track.
      const feeds = configuredFeeds(values.feeds, dataDir);
      const running = await startService({
        dataDir,
        database,
        host: values.host ?? DEFAULT_HOST,
        port,
        logger,
        config,
        smtpPort,
        feeds: feeds ?? emptyFeedsConfig(),
      });
      service = running;
      console.log(`Quayside service listening on ${running.baseUrl}`);
      if (running.smtpPort !== undefined)
        console.log(`Email submissions: SMTP on port ${running.smtpPort}`);
      if (running.initialKey) console.log(`API key: ${running.initialKey}`);
      if (outgoingMail) console.log(`Outgoing mail: ${outgoingMail.origin}`);
      if (database)
        console.log(
          database.readStalenessMs
            ? `Reads: other instances' changes show once PostgreSQL announces them; the version is read again at least every ${database.readStalenessMs} ms (--db-read-staleness-ms)`
            : `Reads: each request reads the database's version, so other instances' changes show at once (--db-read-staleness-ms 0)`,
        );
      console.log(
        feeds
          ? `Feeds: ${feeds.origin} (${feeds.carriers.length} carriers, ${feeds.terminals.length} terminals, ${feeds.ais.length} AIS sources)`
          : 'Feeds: none configured (only TEST numbers can be tracked; see --feeds)',
      );
    }

    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        console.log(`Received ${signal}, shutting down`);
        void (async () => {
          try {
            await service.close();
          } finally {
            resolve();
          }
        })();
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    return 0;
  },
};
