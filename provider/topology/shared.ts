/**
 * The cluster's shared rows that every network references by name: the Copp `ovnkube-default`
 * with upstream's control-plane rate limiters (`<protocol>-rate-limiter` meters, packets per
 * second, fair, all holding one drop band of 25 pps: upstream's `EnsureDefaultCOPP`, which
 * creates that one band and gives it to every meter) and the ACL logging meter `acl-logging`
 * (upstream's default `--acl-logging-rate-limit` of 20, its own band).
 * They are shared rows: several owners in one Northbound use the same ones, and the last owner
 * that stops using them deletes them; rows of that name someone else made are used as they are.
 */
import { ACL_LOGGING_METER, DEFAULT_COPP } from './names';
import { identityOf, KINDS, keyedRow, row, type DesiredRow } from './rows';

/** The protocols upstream rate-limits in `ovnkube-default`, each with meter `<protocol>-rate-limiter`. */
export const COPP_PROTOCOLS = [
  'arp',
  'arp-resolve',
  'bfd',
  'event-elb',
  'icmp4-error',
  'icmp6-error',
  'reject',
  'tcp-reset',
  'svc-monitor',
] as const;

const DEFAULT_RATE = 25;
const ACL_LOGGING_RATE = 20;

function band(key: string, rate: number): DesiredRow {
  return keyedRow(KINDS.meterBand, { meter: key }, {}, { action: 'drop', rate });
}

function meter(name: string, bandRow: DesiredRow): DesiredRow {
  return row('Meter', { name, unit: 'pktps', fair: true, bands: [identityOf(bandRow)] });
}

export function meterName(protocol: string): string {
  return `${protocol}-rate-limiter`;
}

/** Copp, meters and bands the rendered networks refer to, each shared by every owner that renders it (nb/shared.ts). */
export function renderSharedRows(): DesiredRow[] {
  const meters: Record<string, string> = {};
  for (const protocol of COPP_PROTOCOLS) meters[protocol] = meterName(protocol);
  const coppBand = band(`${DEFAULT_RATE}-pktps-rate-limiter`, DEFAULT_RATE);
  const loggingBand = band(ACL_LOGGING_METER, ACL_LOGGING_RATE);
  const rows = [
    row('Copp', { name: DEFAULT_COPP, meters }),
    ...COPP_PROTOCOLS.map((p) => meter(meterName(p), coppBand)),
    coppBand,
    meter(ACL_LOGGING_METER, loggingBand),
    loggingBand,
  ];
  return rows.map((r) => ({ ...r, shared: true }));
}
