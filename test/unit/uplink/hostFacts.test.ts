import { describe, expect, it } from 'vitest';
import { hostKeyPin, mappingOperations, parseHostFacts } from '../../../provider/runtime/uplink';

const addr = JSON.stringify([
  {
    ifindex: 5,
    ifname: 'blue0',
    mtu: 1500,
    address: '02:04:c8:26:68:0f',
    addr_info: [
      { family: 'inet', local: '203.0.113.13', prefixlen: 24, scope: 'global', label: 'blue0' },
      { family: 'inet', local: '203.0.113.99', prefixlen: 24, scope: 'global', secondary: true },
      { family: 'inet6', local: 'fe80::4:c8ff:fe26:680f', prefixlen: 64, scope: 'link' },
    ],
  },
  { ifindex: 6, ifname: 'eth2', mtu: 1300, address: '4e:c5:84:e6:43:7b', addr_info: [] },
]);
const v4 = JSON.stringify([
  { dst: 'default', gateway: '198.19.1.1', dev: 'breth0', flags: [] },
  { dst: 'default', gateway: '203.0.113.1', dev: 'blue0', metric: 200, flags: [] },
  {
    dst: 'default',
    metric: 300,
    nexthops: [
      { gateway: '203.0.113.2', dev: 'blue0' },
      { gateway: '203.0.113.3', dev: 'blue0' },
    ],
  },
]);
const v6 = JSON.stringify([{ dst: 'fe80::/64', dev: 'blue0', protocol: 'kernel' }]);

describe('parsing discovery output', () => {
  it('ip -j addr becomes links with MAC, MTU and typed addresses', () => {
    const { links } = parseHostFacts(`${addr}\n${v4}\n${v6}\n`);
    expect(links).toEqual([
      {
        name: 'blue0',
        mac: '02:04:c8:26:68:0f',
        mtu: 1500,
        addresses: [
          { family: 4, address: '203.0.113.13', prefix: 24, scope: 'global', secondary: false, deprecated: false },
          { family: 4, address: '203.0.113.99', prefix: 24, scope: 'global', secondary: true, deprecated: false },
          {
            family: 6,
            address: 'fe80::4:c8ff:fe26:680f',
            prefix: 64,
            scope: 'link',
            secondary: false,
            deprecated: false,
          },
        ],
      },
      { name: 'eth2', mac: '4e:c5:84:e6:43:7b', mtu: 1300, addresses: [] },
    ]);
  });

  it('routes of both families keep their device, gateway and whether they are multipath', () => {
    const { routes } = parseHostFacts(`${addr}\n${v4}\n${v6}\n`);
    expect(routes).toEqual([
      { family: 4, dst: 'default', gateway: '198.19.1.1', dev: 'breth0', multipath: false },
      { family: 4, dst: 'default', gateway: '203.0.113.1', dev: 'blue0', multipath: false },
      { family: 4, dst: 'default', multipath: true },
      { family: 6, dst: 'fe80::/64', dev: 'blue0', multipath: false },
    ]);
  });

  it('output that is not JSON is an error naming the command', () => {
    expect(() => parseHostFacts('Object "-j" is unknown\n[]\n[]')).toThrow(/ip -j addr show output is not a JSON list/);
  });
});

describe('writing mappings', () => {
  it('the write waits on the external_ids it read, then replaces only the two keys', () => {
    const ops = mappingOperations(
      'u1',
      { 'ovn-bridge-mappings': 'physnet:breth0', hostname: 'n1' },
      { mappings: 'physnet:breth0,n:br', owned: 'n', set: [], removed: [] },
      'ovnk.io/bridge-mappings/o',
    );
    expect(ops).toEqual([
      {
        op: 'wait',
        table: 'Open_vSwitch',
        where: [['_uuid', '==', ['uuid', 'u1']]],
        columns: ['external_ids'],
        until: '==',
        rows: [
          {
            external_ids: [
              'map',
              [
                ['hostname', 'n1'],
                ['ovn-bridge-mappings', 'physnet:breth0'],
              ],
            ],
          },
        ],
        timeout: 0,
      },
      {
        op: 'mutate',
        table: 'Open_vSwitch',
        where: [['_uuid', '==', ['uuid', 'u1']]],
        mutations: [['external_ids', 'delete', ['set', ['ovn-bridge-mappings', 'ovnk.io/bridge-mappings/o']]]],
      },
      {
        op: 'mutate',
        table: 'Open_vSwitch',
        where: [['_uuid', '==', ['uuid', 'u1']]],
        mutations: [
          [
            'external_ids',
            'insert',
            [
              'map',
              [
                ['ovn-bridge-mappings', 'physnet:breth0,n:br'],
                ['ovnk.io/bridge-mappings/o', 'n'],
              ],
            ],
          ],
        ],
      },
    ]);
  });

  it('a host key pin is a fingerprint or known_hosts text', () => {
    expect(hostKeyPin('SHA256:9TekflPMNYVtm1Tkmtraap+cophuwDHbbXMnqiWIT44')).toEqual({
      fingerprint: 'SHA256:9TekflPMNYVtm1Tkmtraap+cophuwDHbbXMnqiWIT44',
    });
    expect(hostKeyPin('198.18.1.12 ssh-ed25519 AAAAC3Nz')).toEqual({ knownHosts: '198.18.1.12 ssh-ed25519 AAAAC3Nz' });
    expect(hostKeyPin(undefined)).toBeUndefined();
  });
});
