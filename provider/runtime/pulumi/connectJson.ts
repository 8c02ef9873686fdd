/**
 * The connect renderer's input as JSON and back: ConnectInput holds parsed CIDRs (bigint
 * addresses), which state cannot hold, so a ConnectRouter's slice keeps them as text and
 * parses them again before rendering.
 */
import type { ConnectedNetwork, ConnectInput } from '../../connect/input';
import { type Cidr, formatCidr, mustParseCidr } from '../../model/cidr';
import { dict } from '../../model/dict';

type Text<T> = {
  [K in keyof T]: T[K] extends Cidr
    ? string
    : T[K] extends Cidr[]
      ? string[]
      : T[K] extends Record<string, Cidr[]>
        ? Record<string, string[]>
        : T[K];
};

export type ConnectedNetworkJson = Text<ConnectedNetwork>;

export interface ConnectJson extends Omit<Text<ConnectInput>, 'networks' | 'connectSubnets'> {
  connectSubnets: { cidr: string; networkPrefix: number }[];
  networks: ConnectedNetworkJson[];
}

const texts = (cidrs: Cidr[]) => cidrs.map(formatCidr);
const parsed = (cidrs: string[]) => cidrs.map(mustParseCidr);
const mapValues = <A, B>(record: Record<string, A>, f: (a: A) => B) =>
  dict(Object.entries(record).map(([k, v]) => [k, f(v)]));

export function connectToJson(input: ConnectInput): ConnectJson {
  return {
    ...input,
    connectSubnets: input.connectSubnets.map((s) => ({ cidr: formatCidr(s.cidr), networkPrefix: s.networkPrefix })),
    networks: input.networks.map((n) => ({
      ...n,
      subnets: texts(n.subnets),
      connectSubnets: texts(n.connectSubnets),
      hostSubnets: mapValues(n.hostSubnets, texts),
    })),
    serviceCIDRs: texts(input.serviceCIDRs),
  };
}

export function connectFromJson(json: ConnectJson): ConnectInput {
  return {
    ...json,
    connectSubnets: json.connectSubnets.map((s) => ({ cidr: mustParseCidr(s.cidr), networkPrefix: s.networkPrefix })),
    networks: json.networks.map((n) => ({
      ...n,
      subnets: parsed(n.subnets),
      connectSubnets: parsed(n.connectSubnets),
      hostSubnets: mapValues(n.hostSubnets, parsed),
    })),
    serviceCIDRs: parsed(json.serviceCIDRs),
  };
}
