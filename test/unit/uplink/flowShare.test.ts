import { describe, expect, it } from 'vitest';
import { bridgeFlows, networkFlows, ownerCookie, sharedCookie } from '../../../provider/uplink/flows';
import { bridgeChange } from '../../../provider/uplink/flowShare';
import { dumpedFlows } from '../../../provider/uplink/flowText';

// Two owners' networks on one Uplink bridge (issue 25 point 1): blue (owner a, patch port 4) and
// purple (owner b, patch port 7), as the lab's br-blue carries them.
const bridge = { physicalPort: '2', hostPort: '3', mac: 'be:48:fc:93:97:4d', ip: '203.0.113.12' };
const blue = {
  ...bridge,
  networks: [{ network: 'blue', patchPort: '4', ctMark: '0x4', gatewayRouterMasqIp: '169.254.0.11' }],
};
const purple = {
  ...bridge,
  networks: [{ network: 'purple', patchPort: '7', ctMark: '0x5', gatewayRouterMasqIp: '169.254.0.13' }],
};
const fanOut = (actions: string) => `dl_dst=be:48:fc:93:97:4d,priority=10 actions=${actions}`;
const flowsOf = (bundle: string[]) => bundle.filter((l) => l.startsWith('add ')).map((l) => l.slice(4));

describe("one owner's change to a bridge other owners share", () => {
  it("writes its networks' flows and the shared ones on an empty bridge, and nothing when they are there", () => {
    const first = bridgeChange('a', blue, []);
    expect(first).toMatchObject({ missing: 11, unexpected: 0, otherPorts: [] });
    expect(first.bundle.slice(0, 2)).toEqual([
      `delete cookie=${ownerCookie('a')}/-1`,
      `delete cookie=${sharedCookie}/-1`,
    ]);
    expect(bridgeChange('a', blue, dumpedFlows(flowsOf(first.bundle)))).toEqual({
      missing: 0,
      unexpected: 0,
      bundle: [],
      otherPorts: [],
    });
  });

  it("leaves another owner's flows alone and sends the shared MAC to both owners' patch ports", () => {
    const dumped = dumpedFlows(bridgeFlows('a', blue));
    const change = bridgeChange('b', purple, dumped);
    expect(change.otherPorts).toEqual(['4']);
    expect(change.bundle).not.toContain(`delete cookie=${ownerCookie('a')}/-1`);
    const after = dumpedFlows([...networkFlows('a', blue), ...flowsOf(change.bundle)]);
    expect(after.map((f) => f.flow)).toContain(fanOut('output:4,output:7,NORMAL'));
    expect(bridgeChange('b', purple, after).bundle).toEqual([]);
    // and the first owner, asked again, finds its flows and the shared ones as it wants them
    expect(bridgeChange('a', blue, after).bundle).toEqual([]);
  });

  it('removes only its own flows when it leaves, keeping the shared ones with the fan-out to the networks left', () => {
    const both = dumpedFlows([
      ...networkFlows('a', blue),
      ...networkFlows('b', purple),
      ...bridgeFlows('b', { ...bridge, networks: [...blue.networks, ...purple.networks] }).filter((f) =>
        f.startsWith(`cookie=${sharedCookie}`),
      ),
    ]);
    const leaving = bridgeChange('a', undefined, both);
    expect(leaving).toMatchObject({ missing: 1, unexpected: 7 });
    expect(leaving.bundle).toEqual([
      `delete cookie=${ownerCookie('a')}/-1`,
      `add cookie=${sharedCookie}, ${fanOut('output:7,NORMAL')}`,
    ]);
    const left = dumpedFlows([
      ...networkFlows('b', purple),
      ...bridgeFlows('b', purple).filter((f) => f.includes(sharedCookie)),
    ]);
    expect(bridgeChange('b', purple, left).bundle).toEqual([]);
    expect(bridgeChange('a', undefined, left)).toMatchObject({ missing: 0, unexpected: 0, bundle: [] });
  });

  it('takes the shared flows with it when it is the last owner on the bridge', () => {
    const change = bridgeChange('a', undefined, dumpedFlows(bridgeFlows('a', blue)));
    expect(change).toMatchObject({ missing: 0, unexpected: 11 });
    expect(change.bundle).toEqual([`delete cookie=${ownerCookie('a')}/-1`, `delete cookie=${sharedCookie}/-1`]);
  });

  it("keeps the default network's patch port in the fan-outs when an owner leaves a bridge that carries it", () => {
    const withDefault = { ...bridge, defaultPatchPort: '1' };
    const shared = bridgeFlows('b', { ...withDefault, networks: [...blue.networks, ...purple.networks] }).filter((f) =>
      f.startsWith(`cookie=${sharedCookie}`),
    );
    const leaving = bridgeChange(
      'a',
      undefined,
      dumpedFlows([...networkFlows('a', blue), ...networkFlows('b', purple), ...shared]),
    );
    const after = flowsOf(leaving.bundle).map((f) => f.replace(/^cookie=0x[0-9a-f]+, /, ''));
    expect(after.sort()).toEqual([
      'arp,dl_dst=ff:ff:ff:ff:ff:ff,in_port=2,priority=11 actions=output:1,output:7,NORMAL',
      fanOut('output:1,output:7,NORMAL'),
    ]);
  });

  it("refuses to rewrite breth0's shared service entry when another owner's networks use another service CIDR", () => {
    const services = (cidr: string) => [{ cidr, masqueradeSubnet: '169.254.169.0/29', hostMasqIp: '169.254.169.2' }];
    const onBreth0 = (input: typeof blue, cidr: string) => ({
      ...input,
      kind: 'gateway' as const,
      services: services(cidr),
    });
    const dumped = dumpedFlows(bridgeFlows('a', onBreth0(blue, '10.96.0.0/16')));
    const change = bridgeChange('b', onBreth0(purple, '172.30.0.0/16'), dumped);
    expect(change.bundle).toEqual([]);
    expect(change.conflict).toMatch(/use service CIDR 10\.96\.0\.0\/16.*spec\.serviceCIDRs \(172\.30\.0\.0\/16\)/);
    // the same service network: no conflict, and the shared flows stay as the first owner wrote them
    const agreeing = bridgeChange('b', onBreth0(purple, '10.96.0.0/16'), dumped);
    expect(agreeing.conflict).toBeUndefined();
    expect(flowsOf(agreeing.bundle).filter((f) => f.includes('priority=550'))).toEqual(
      bridgeFlows('a', onBreth0(blue, '10.96.0.0/16')).filter((f) => f.includes('priority=550')),
    );
    // the owner alone on the bridge may change its own service network
    expect(bridgeChange('a', onBreth0(blue, '172.30.0.0/16'), dumped).conflict).toBeUndefined();
  });
});
