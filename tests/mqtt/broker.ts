// A real Mosquitto broker for the MQTT tests, from Debian's package: its own config in a temp dir,
// a free port on loopback, and stop/start on that same port to play a broker outage. Every broker
// started here is killed when the test process exits, whatever happened.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'];

/** The broker binary, or a loud failure naming the package: these tests never skip. */
export function mosquittoPath(): string {
  for (const path of MOSQUITTO) {
    if (spawnSync(path, ['-h'], { stdio: 'ignore' }).error === undefined) return path;
  }
  throw new Error('mosquitto is not installed; the MQTT tests need the real broker: apt-get install -y --no-install-recommends mosquitto');
}

export interface BrokerOptions {
  /** Keep retained messages and sessions across a stop (saved at a clean stop). */
  readonly persistence: boolean;
  /** Users and an `acl_file`'s text instead of anonymous access (as the README sets Mosquitto up). */
  readonly auth?: { readonly users: Readonly<Record<string, string>>; readonly acl: string };
}

export class TestBroker {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  /** The broker's own pid (the child is the shell that watches it). */
  private pid = 0;
  private readonly dir: string;
  readonly url: string;
  /** What the broker printed, for a failing test's message. */
  output = '';

  private constructor(
    private readonly path: string,
    readonly port: number,
    options: BrokerOptions,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), 'spieltisch-mosquitto-'));
    this.url = `mqtt://127.0.0.1:${port}`;
    // As root, Mosquitto would drop to its own user and could not write the temp dir.
    const user = userInfo().username;
    const access = options.auth ? this.auth(options.auth) : ['allow_anonymous true'];
    writeFileSync(
      join(this.dir, 'mosquitto.conf'),
      [
        `listener ${port} 127.0.0.1`,
        ...access,
        `user ${user}`,
        `persistence ${options.persistence}`,
        `persistence_location ${this.dir}/`,
        'autosave_interval 0',
        'log_dest stderr',
        'log_type error',
        'log_type warning',
        '',
      ].join('\n'),
    );
  }

  /** The password and ACL files, and the config lines naming them. */
  private auth({ users, acl }: NonNullable<BrokerOptions['auth']>): string[] {
    const passwords = join(this.dir, 'passwords');
    writeFileSync(passwords, '');
    for (const [name, password] of Object.entries(users)) {
      const made = spawnSync('mosquitto_passwd', ['-b', passwords, name, password], { encoding: 'utf8' });
      if (made.status !== 0) throw new Error(`mosquitto_passwd failed: ${made.stderr}`);
    }
    writeFileSync(join(this.dir, 'acl'), acl);
    return ['allow_anonymous false', `password_file ${passwords}`, `acl_file ${join(this.dir, 'acl')}`];
  }

  static async start(options: BrokerOptions = { persistence: false }): Promise<TestBroker> {
    const broker = new TestBroker(mosquittoPath(), await freePort(), options);
    await broker.resume();
    return broker;
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** Starts (again) on the same port and resolves once it takes connections. */
  async resume(): Promise<void> {
    if (this.child) return;
    // A small shell holds the broker: it prints the broker's pid, and kills it when this process
    // goes away without cleaning up (its stdin, held by us, closes), so no broker outlives a test.
    const child = spawn('/bin/sh', ['-c', WATCHED, 'watched-mosquitto', this.path, join(this.dir, 'mosquitto.conf')], { stdio: ['pipe', 'pipe', 'pipe'] });
    live.add(this);
    this.child = child;
    child.stderr?.on('data', (chunk) => (this.output += String(chunk)));
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        if (this.child === child) this.child = null;
        this.pid = 0;
        resolve();
      }),
    );
    this.pid = await new Promise<number>((resolve) => {
      let out = '';
      child.stdout?.on('data', (chunk) => {
        out += String(chunk);
        const line = /^(\d+)\n/.exec(out);
        if (line) resolve(Number(line[1]));
      });
      child.once('exit', () => resolve(0));
    });
    for (let attempt = 0; ; attempt++) {
      if (this.child !== child) throw new Error(`mosquitto did not start:\n${this.output}`);
      if (await accepts(this.port)) return;
      if (attempt > 200) throw new Error(`mosquitto does not take connections on ${this.port}:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Stops the broker: `SIGTERM` lets it save its state, `SIGKILL` is a crash. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    if (!this.child) return;
    if (this.pid) process.kill(this.pid, signal);
    else this.child.kill('SIGKILL');
    await this.exited;
  }

  /** Stops for good and removes the temp dir. */
  async close(): Promise<void> {
    await this.stop('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
    live.delete(this);
  }

  /** On the way out of a process that did not close its brokers: at once, synchronously. */
  killNow(): void {
    if (this.pid) {
      try {
        process.kill(this.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `$1` the broker, `$2` its config: prints the broker's pid, kills it when stdin closes, ends with it. */
const WATCHED = [
  'exec 3<&0',
  '"$1" -c "$2" </dev/null & m=$!',
  'echo "$m"',
  '(read _ <&3; kill -KILL "$m" 2>/dev/null) & w=$!',
  'wait "$m"',
  'kill "$w" 2>/dev/null',
].join('\n');

const live = new Set<TestBroker>();
process.once('exit', () => {
  for (const broker of live) broker.killNow();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
