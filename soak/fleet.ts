// The merchant and reconciler processes: started, killed with SIGKILL, started again. Every
// death is kept (which start of which process, and when), because a handler may run again only
// when the process that ran it died before it completed.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type ChildConfig, childConfigVariable } from './child-config.js';

export interface Death {
  instance: string;
  at: number;
  how: 'killed' | 'crashed';
}

interface Member {
  name: string;
  file: string;
  config: Omit<ChildConfig, 'instance' | 'drain'>;
  starts: number;
  child: ChildProcess | null;
  instance: string;
}

const soakDir = fileURLToPath(new URL('.', import.meta.url));

export class Fleet {
  readonly deaths: Death[] = [];
  readonly #members = new Map<string, Member>();
  /** Every child not yet exited, ready or still starting: a stop reaches them all. */
  readonly #alive = new Set<ChildProcess>();
  readonly #log: WriteStream;
  #drain = false;
  #stopping = false;

  constructor(directory: string) {
    this.#log = createWriteStream(join(directory, 'processes.log'));
  }

  get names(): string[] {
    return [...this.#members.keys()];
  }

  async add(name: string, file: string, config: Member['config']): Promise<void> {
    this.#members.set(name, { name, file, config, starts: 0, child: null, instance: '' });
    await this.start(name);
  }

  /** Starts the process (again), retrying while it exits before its ready line. */
  async start(name: string): Promise<void> {
    const member = this.#member(name);
    for (let attempt = 1; ; attempt += 1) {
      if (await this.#spawn(member)) return;
      if (attempt === 60) throw new Error(`${name} never became ready (see processes.log)`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  /** SIGKILL: no handler, no cleanup, as a crashed host or an OOM kill. */
  async kill(name: string): Promise<void> {
    const member = this.#member(name);
    const child = member.child;
    if (!child || child.exitCode !== null) return;
    member.child = null;
    this.deaths.push({ instance: member.instance, at: Date.now(), how: 'killed' });
    this.#log.write(`[${member.instance}] SIGKILL at ${new Date().toISOString()}\n`);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  isUp(name: string): boolean {
    return this.#member(name).child !== null;
  }

  /** Reconcilers check every open record each pass from now on (and after any restart). */
  drain(): void {
    this.#drain = true;
    for (const member of this.#members.values()) {
      if (member.file === 'reconciler.ts') member.child?.send?.('drain');
    }
  }

  async stopAll(): Promise<void> {
    this.#stopping = true;
    await Promise.all(
      [...this.#alive].map(async (child) => {
        if (child.exitCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(late);
      }),
    );
    this.#log.end();
  }

  #member(name: string): Member {
    const member = this.#members.get(name);
    if (!member) throw new Error(`no process named ${name}`);
    return member;
  }

  #spawn(member: Member): Promise<boolean> {
    member.starts += 1;
    const instance = `${member.name}#${member.starts}`;
    const config: ChildConfig = { ...member.config, instance, drain: this.#drain };
    const child = spawn(process.execPath, ['--import', 'tsx', join(soakDir, member.file)], {
      env: {
        ...process.env,
        [childConfigVariable]: JSON.stringify(config),
        TSX_TSCONFIG_PATH: join(soakDir, 'tsconfig.json'),
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.#alive.add(child);
    child.once('exit', () => this.#alive.delete(child));
    child.stderr?.on('data', (chunk: Buffer) => this.#log.write(`[${instance}] ${chunk}`));
    return new Promise((resolve) => {
      let ready = false;
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (ready || !line.startsWith('ready ')) return;
        ready = true;
        member.child = child;
        member.instance = instance;
        resolve(true);
      });
      child.once('exit', (code, signal) => {
        this.#log.write(`[${instance}] exited ${code ?? signal}\n`);
        if (!ready) return resolve(false);
        // Killed by us, or stopped: expected. Anything else is a crash, kept and restarted.
        if (member.child !== child || this.#stopping) return;
        member.child = null;
        this.deaths.push({ instance, at: Date.now(), how: 'crashed' });
        setTimeout(() => void this.start(member.name).catch(() => {}), 500);
      });
    });
  }
}
