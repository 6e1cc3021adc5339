import { spawnSync } from 'node:child_process';
import { cpus, freemem, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';

export interface MachineDescription {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  freeMemoryGiB: number;
  /** 1, 5 and 15 minute load averages when the run started: a busy machine explains noisy figures. */
  loadAverage: number[];
  os: string;
  node: string;
  java: string;
}

/** `java -version` writes its banner to stderr. */
function javaBanner(): string {
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  const result = spawnSync(java, ['-version'], { encoding: 'utf8' });
  return `${result.stderr ?? ''}${result.stdout ?? ''}`.split('\n')[0]?.trim() || 'not found';
}

export function describeMachine(): MachineDescription {
  const cpuList = cpus();
  const gib = (bytes: number) => Math.round((bytes / 1024 ** 3) * 10) / 10;
  return {
    cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
    cores: cpuList.length,
    memoryGiB: gib(totalmem()),
    freeMemoryGiB: gib(freemem()),
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    os: `${platform()} ${release()}`,
    node: process.version,
    java: javaBanner(),
  };
}
