// The names this service answers to, checked against every request's Host header: a page of another site whose
// name was made to point here (DNS rebinding) names that site in Host and is refused (README.md, "Security").
import { hostname, networkInterfaces } from 'node:os';

/** How often the machine's own names and addresses are read again when an unknown Host comes (DHCP may change them). */
export const MACHINE_NAMES_REFRESH_MS = 5000;

/**
 * The machine's own names: localhost and the loopback addresses, its hostname (and the same `.local`, as mDNS
 * announces it), and the address of every network interface.
 */
export function machineNames(): string[] {
  const names = ['localhost', '127.0.0.1', '::1'];
  const own = hostname().toLowerCase();
  if (own) names.push(own, own.includes('.') ? own : `${own}.local`);
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) names.push(entry.address.toLowerCase().split('%')[0]);
  }
  return names;
}

/**
 * The name a Host header gives, without its port, brackets or a trailing dot, in lower case; null when it is not
 * a name at all. `[::1]:3000` → `::1`; `Tisch.local.:3000` → `tisch.local`.
 */
export function hostName(header: string): string | null {
  const value = header.trim().toLowerCase();
  let name: string;
  const bracketed = /^\[([0-9a-f:.]+(?:%[\w.-]+)?)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) name = bracketed[1].split('%')[0];
  else {
    const plain = /^([a-z0-9_.-]+)(?::\d{1,5})?$/.exec(value);
    if (!plain) return null;
    name = plain[1];
  }
  name = name.replace(/\.$/, '');
  return name === '' ? null : name;
}

/** `--host` values: repeatable and comma-separated, each a name (a port given with it is dropped). */
export function parseHostNames(values: readonly string[]): string[] {
  const names: string[] = [];
  for (const value of values) {
    for (const part of value.split(',')) {
      const trimmed = part.trim();
      if (trimmed === '') continue;
      if (trimmed === '*') {
        names.push('*');
        continue;
      }
      // A bare IPv6 address (two colons or more) is given without brackets.
      const name = hostName(trimmed.split(':').length > 2 && !trimmed.startsWith('[') ? `[${trimmed}]` : trimmed);
      if (name === null) throw new Error(`"${trimmed}" is not a host name or address`);
      names.push(name);
    }
  }
  return names;
}

/**
 * The check itself: the names given (`--host`, and the hosts of allowed origins) and the machine's own. `*` among
 * the names turns the check off, for a setup whose names cannot be listed.
 */
export class HostNames {
  private readonly given: ReadonlySet<string>;
  private machine: ReadonlySet<string>;
  private readAt: number;

  constructor(
    names: readonly string[] = [],
    private readonly readMachine: () => readonly string[] = machineNames,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.given = new Set(names.map((n) => n.toLowerCase()));
    this.machine = new Set(readMachine());
    this.readAt = now();
  }

  /** Whether a request with this Host header is for this service. No Host at all (HTTP/1.0) is no browser's. */
  allows(header: string | undefined): boolean {
    if (header === undefined) return true;
    if (this.given.has('*')) return true;
    const name = hostName(header);
    if (name === null) return false;
    if (this.given.has(name) || this.machine.has(name)) return true;
    // Each of localhost's own subdomains is the loopback in every browser; no one else can point them here.
    if (name.endsWith('.localhost')) return true;
    if (this.now() - this.readAt < MACHINE_NAMES_REFRESH_MS) return false;
    this.machine = new Set(this.readMachine());
    this.readAt = this.now();
    return this.machine.has(name);
  }
}

/** Which service refuses: a table (`serve`) or the tournament display (`broadcast`). */
export type RefusingService = 'table' | 'broadcast';

const REFUSAL_WORDS: Readonly<Record<RefusingService, { en: string; de: string }>> = {
  table: { en: 'This table', de: 'Dieser Spieltisch' },
  broadcast: { en: 'This tournament display', de: 'Diese Turnieranzeige' },
};

/** The refusal of a request for a name this service does not answer to, in the sentence it shows. */
export function unknownHostRefusal(
  header: string,
  service: RefusingService = 'table',
): { readonly status: 421; readonly code: 'server/unknown-host'; readonly message: string; readonly text: string } {
  const shown = header.slice(0, 100);
  const name = hostName(header) ?? shown;
  const words = REFUSAL_WORDS[service];
  const message = `${words.en} does not answer to the name "${shown}": open it as localhost or by this machine's name or address, or start it with --host ${name}.`;
  const german = `${words.de} hört nicht auf den Namen „${shown}“: Öffne ${service === 'table' ? 'ihn' : 'sie'} als localhost oder über Namen oder Adresse dieses Rechners, oder starte ${service === 'table' ? 'ihn' : 'sie'} mit --host ${name}.`;
  return { status: 421, code: 'server/unknown-host', message, text: `${german}\n${message}\n` };
}
