/**
 * The lab's command limit (lab/exec.ts) on real processes: a command at rest past its limit ends,
 * saying so; one that uses CPU past it (as any command does on a loaded machine, where it gets
 * the CPU late) runs to its end.
 */
import { describe, expect, it } from 'vitest';
import { exec } from '../../../lab/exec';

describe("a lab command's limit", () => {
  it('ends a command that rests past its limit, naming the command and the limit', async () => {
    const started = Date.now();
    await expect(exec(['sleep', '600'], { timeoutMs: 200 })).rejects.toThrow(
      /command failed \(exit -1\): sleep 600: ended after 0\.2 s \(stretched by the load\) with no CPU used/,
    );
    expect(Date.now() - started).toBeLessThan(600_000);
  });

  it('lets a command that uses CPU run past its limit to its end', async () => {
    // about 1 s of CPU, five times the limit, however long a loaded machine makes that
    const burn = 'while (process.cpuUsage().user < 1e6); process.stdout.write("done")';
    const started = Date.now();
    const result = await exec([process.execPath, '-e', burn], { timeoutMs: 200 });
    expect(result).toMatchObject({ code: 0, stdout: 'done' });
    expect(Date.now() - started).toBeGreaterThan(200);
  });
});
