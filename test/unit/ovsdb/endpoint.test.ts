import { describe, expect, it } from 'vitest';
import { describeEndpoint, parseEndpoint, parseEndpoints } from '../../../provider/ovsdb/endpoint';
import { OvsdbValueError } from '../../../provider/ovsdb/errors';

describe('parsing OVSDB remotes', () => {
  it('reads unix, tcp and ssl remotes', () => {
    expect(parseEndpoint('unix:/run/ovn/ovnnb_db.sock')).toEqual({ kind: 'unix', path: '/run/ovn/ovnnb_db.sock' });
    expect(parseEndpoint('tcp:127.0.0.1:6641')).toEqual({ kind: 'tcp', host: '127.0.0.1', port: 6641 });
    expect(parseEndpoint('ssl:ovn-central.example:6641')).toEqual({
      kind: 'ssl',
      host: 'ovn-central.example',
      port: 6641,
    });
  });

  it('reads IPv6 hosts in brackets and writes them back the same way', () => {
    const endpoint = parseEndpoint('ssl:[fd00::1]:6641');
    expect(endpoint).toEqual({ kind: 'ssl', host: 'fd00::1', port: 6641 });
    expect(describeEndpoint(endpoint)).toBe('ssl:[fd00::1]:6641');
  });

  it('reads a comma-separated cluster of remotes', () => {
    expect(parseEndpoints('tcp:127.0.0.1:6641, tcp:127.0.0.1:6642,tcp:[::1]:6643')).toEqual([
      { kind: 'tcp', host: '127.0.0.1', port: 6641 },
      { kind: 'tcp', host: '127.0.0.1', port: 6642 },
      { kind: 'tcp', host: '::1', port: 6643 },
    ]);
  });

  it('refuses an unknown scheme naming the field and the value', () => {
    expect(() => parseEndpoint('http://x', 'targets.zones.central.nb')).toThrow(
      'ovsdb: [targets.zones.central.nb] "http://x": expected unix:PATH, tcp:HOST:PORT or ssl:HOST:PORT',
    );
  });

  it('refuses a missing or out-of-range port and an unbracketed IPv6 host', () => {
    expect(() => parseEndpoint('tcp:127.0.0.1')).toThrow(OvsdbValueError);
    expect(() => parseEndpoint('tcp:127.0.0.1:70000')).toThrow('port "70000" is not a number from 1 to 65535');
    expect(() => parseEndpoint('tcp:fd00::1:6641')).toThrow('IPv6 hosts in brackets');
  });

  it('names the member of a cluster list that is wrong', () => {
    expect(() => parseEndpoints('tcp:127.0.0.1:6641,unix:', 'nb')).toThrow('[nb[1]]');
    expect(() => parseEndpoints(' , ', 'nb')).toThrow('names no remote');
  });
});
