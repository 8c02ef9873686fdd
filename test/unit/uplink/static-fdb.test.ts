/**
 * The static FDB entry of an Uplink bridge, as upstream's ovnkube-node pins it
 * (go-controller/pkg/node/gateway_udn.go configureUplinkStaticFDBEntry -> util/ovs.go
 * SetStaticFDBEntry; the port from bridgeconfig/bridgeconfig.go GetStaticFDBPort and
 * gatewayHostOVSInterface), and ovnk's ownership of it.
 */
import { describe, expect, it } from 'vitest';
import {
  type BridgeFdbInput,
  fdbPhase,
  formatFdbRecord,
  parseFdbRecord,
  parseFdbShow,
  planBridgeFdb,
  planUplinks,
  type StaticFdbEntry,
  wantedFdbEntries,
  type NodeDiscovery,
} from '../../../provider/uplink';
import { ovsBridgeConfig } from '../../support/objects';
import { blueUplinkCluster, nodeFacts, tenant } from './world';

const blue0 = (mac = '0a:00:00:00:00:01'): StaticFdbEntry => ({ bridge: 'br-blue', port: 'blue0', vlan: 0, mac });

function planFor(host: string) {
  const built = blueUplinkCluster('[{ name: n1, gatewayBridge: breth0 }]', [ovsBridgeConfig(host)], tenant);
  expect(built.problems).toEqual([]);
  const facts = nodeFacts('n1');
  // the host interface's address and routes on the link of that name
  facts.links = facts.links.map((l) => (l.name === 'blue0' ? { ...l, name: host } : l));
  facts.routes = facts.routes.map((r) => (r.dev === 'blue0' ? { ...r, dev: host } : r));
  const discovery = new Map<string, NodeDiscovery>([['n1', { ok: true, value: facts }]]);
  return { plan: planUplinks({ cluster: built.cluster, owner: 'o', discovery }), facts };
}

const shownBlue0 = `
 port  VLAN  MAC                Age
    3     0  0a:00:00:00:00:01  static
    2     0  0a:00:00:00:00:99    12
`;

function input(over: Partial<BridgeFdbInput>): BridgeFdbInput {
  return { wanted: [], mine: [], others: [], shown: [], showPort: () => '3', ...over };
}

describe("an Uplink bridge's static FDB entry", () => {
  it("is the UplinkState's MAC on the host interface's port, VLAN 0, when the host interface is a port of the bridge (GetStaticFDBPort)", () => {
    const { plan, facts } = planFor('blue0');
    expect(wantedFdbEntries(plan.nodes[0]!, plan.uplinkStates, facts.ovs)).toEqual([blue0()]);
  });

  it("is on the bridge's own port (LOCAL) when the host interface is the bridge itself (gatewayHostOVSInterface)", () => {
    const { plan, facts } = planFor('br-blue');
    expect(wantedFdbEntries(plan.nodes[0]!, plan.uplinkStates, facts.ovs)).toEqual([
      { bridge: 'br-blue', port: 'br-blue', vlan: 0, mac: '0a:00:00:00:00:01' },
    ]);
  });

  it('reads only the static lines of fdb/show, with the port as it prints it', () => {
    expect(parseFdbShow(shownBlue0 + 'LOCAL     0  AA:BB:CC:DD:EE:FF  static\n')).toEqual([
      { port: '3', vlan: 0, mac: '0a:00:00:00:00:01' },
      { port: 'LOCAL', vlan: 0, mac: 'aa:bb:cc:dd:ee:ff' },
    ]);
  });

  it('keeps its record sorted and readable, and drops what it cannot read', () => {
    const text = formatFdbRecord([blue0('0a:00:00:00:00:02'), blue0()])!;
    expect(text).toBe('br-blue/blue0/0/0a:00:00:00:00:01,br-blue/blue0/0/0a:00:00:00:00:02');
    expect(parseFdbRecord(`${text},garbage`)).toEqual([blue0(), blue0('0a:00:00:00:00:02')]);
    expect(formatFdbRecord([])).toBeUndefined();
  });
});

describe("ovnk's plan for one bridge's static FDB entries", () => {
  it('pins a wanted entry that is missing (an ovs-vswitchd restart, an expiry) and records it', () => {
    expect(planBridgeFdb(input({ wanted: [blue0()], mine: [blue0()] }))).toEqual({
      add: [blue0()],
      remove: [],
      record: [blue0()],
    });
  });

  it('changes nothing when its entry is there and recorded (a second apply)', () => {
    const plan = planBridgeFdb(input({ wanted: [blue0()], mine: [blue0()], shown: parseFdbShow(shownBlue0) }));
    expect(plan).toEqual({ add: [], remove: [], record: [blue0()] });
  });

  it('pins again an entry shown on another port', () => {
    const plan = planBridgeFdb(input({ wanted: [blue0()], shown: parseFdbShow(shownBlue0), showPort: () => '7' }));
    expect(plan.add).toEqual([blue0()]);
  });

  it("leaves an entry that was there before any owner of ours pinned it unrecorded: someone else's", () => {
    const plan = planBridgeFdb(input({ wanted: [blue0()], shown: parseFdbShow(shownBlue0) }));
    expect(plan).toEqual({ add: [], remove: [], record: [] });
  });

  it('shares an entry another owner of ours recorded, so the last one to leave removes it', () => {
    const shared = planBridgeFdb(input({ wanted: [blue0()], others: [blue0()], shown: parseFdbShow(shownBlue0) }));
    expect(shared.record).toEqual([blue0()]);
    const leaving = planBridgeFdb(input({ mine: [blue0()], others: [blue0()], shown: parseFdbShow(shownBlue0) }));
    expect(leaving).toEqual({ add: [], remove: [], record: [] });
  });

  it('removes its own entry when no longer wanted, and only forgets one already gone', () => {
    const shown = parseFdbShow(shownBlue0);
    expect(planBridgeFdb(input({ mine: [blue0()], shown }))).toEqual({ add: [], remove: [blue0()], record: [] });
    expect(planBridgeFdb(input({ mine: [blue0()] }))).toEqual({ add: [], remove: [], record: [] });
  });
});

describe('the gateway phase a static FDB entry gives', () => {
  const report = { bridge: 'br-blue', wanted: ['x'], missing: [], unexpected: [], added: [], removed: [] };

  it("is upstream's UplinkBridgeMappingFailed when pinning failed (ensureUplinkGateway wraps the error so)", () => {
    expect(
      fdbPhase({ ok: true, bridges: [{ ...report, error: 'bridge br-blue: no such bridge' }] }, 'br-blue'),
    ).toEqual({
      phase: 'failed',
      reason: 'UplinkBridgeMappingFailed',
      message: 'bridge br-blue: no such bridge',
    });
  });

  it('is pending while the entry is missing, ready once it is there', () => {
    expect(fdbPhase({ ok: true, bridges: [{ ...report, missing: ['x'] }] }, 'br-blue')).toEqual({ phase: 'pending' });
    expect(fdbPhase({ ok: true, bridges: [report] }, 'br-blue')).toEqual({ phase: 'ready' });
  });
});
