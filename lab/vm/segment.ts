/**
 * The optional data segment between guests: a host bridge and one tap per guest, all named with
 * the lab's prefix (`ovm-<lab>-br`, `ovm-<lab>-t<i>`) so `down` removes exactly what `up` made.
 * Guests see their tap as eth1 with 192.168.50.<i>/24.
 */
import { exec } from '../exec';

export const bridgeName = (lab: string): string => `ovm-${lab}-br`;
export const tapName = (lab: string, index: number): string => `ovm-${lab}-t${index}`;
export const dataAddress = (index: number): string => `192.168.50.${index}/24`;
export const dataMac = (index: number): string => `52:54:00:00:01:${index.toString(16).padStart(2, '0')}`;

export async function createSegment(lab: string, count: number): Promise<string[]> {
  const links = [bridgeName(lab)];
  await exec(['ip', 'link', 'add', bridgeName(lab), 'type', 'bridge']);
  await exec(['ip', 'link', 'set', bridgeName(lab), 'up']);
  for (let i = 1; i <= count; i++) {
    await exec(['ip', 'tuntap', 'add', 'dev', tapName(lab, i), 'mode', 'tap']);
    links.push(tapName(lab, i));
    await exec(['ip', 'link', 'set', tapName(lab, i), 'master', bridgeName(lab), 'up']);
  }
  return links;
}

/** Delete the recorded links (taps first); links already gone are fine. */
export async function deleteLinks(links: string[]): Promise<void> {
  for (const link of [...links].reverse()) await exec(['ip', 'link', 'del', link], { okCodes: [1, 2] });
}
