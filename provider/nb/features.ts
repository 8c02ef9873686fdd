/**
 * Which OVN_Northbound schema version introduced what we may send, and the feature's name, so a
 * refusal can say `ACL.action=pass needs OVN_Northbound >= 7.0.4 (the ACL "pass" action)`.
 * Read off the history of ovn-nb.ovsschema in the OVN repository (the first schema version that
 * has the table, column, enum value or looser constraint), for everything in 7.18.0 that the
 * oldest supported server (Debian bookworm's 7.0.0) lacks.
 * Keys: `Table`, `Table.column`, `Table.column=value` (enum value), `Table.column#constraint`.
 */

export interface Feature {
  since: string;
  feature: string;
}

const f = (since: string, feature: string): Feature => ({ since, feature });

const nbFeatures: Record<string, Feature> = {
  'ACL.tier': f('7.0.3', 'ACL tiers'),
  'ACL.action=pass': f('7.0.4', 'the ACL "pass" action'),
  'ACL.sample_new': f('7.6.0', 'ACL sampling'),
  'ACL.sample_est': f('7.6.0', 'ACL sampling'),
  Sample: f('7.6.0', 'ACL sampling'),
  Sample_Collector: f('7.6.0', 'ACL sampling'),
  Sampling_App: f('7.5.0', 'sampling applications'),
  'ACL.network_function_group': f('7.14.0', 'network function insertion'),
  Network_Function: f('7.14.0', 'network function insertion'),
  'Network_Function.id': f('7.16.0', 'network function ids'),
  Network_Function_Group: f('7.14.0', 'network function insertion'),
  'Network_Function_Group.fallback': f('7.15.0', 'network function fallback'),
  Network_Function_Health_Check: f('7.14.0', 'network function insertion'),
  DHCP_Relay: f('7.3.1', 'DHCP relay'),
  'Logical_Router_Port.dhcp_relay': f('7.3.1', 'DHCP relay'),
  'DNS.options': f('7.2.0', 'OVN-owned DNS records'),
  'Load_Balancer.selection_fields=ipv6_src': f('7.10.0', 'IPv6 selection fields'),
  'Load_Balancer.selection_fields=ipv6_dst': f('7.10.0', 'IPv6 selection fields'),
  'Logical_Router_Policy.action=jump': f('7.9.1', 'router policy chains'),
  'Logical_Router_Policy.chain': f('7.9.1', 'router policy chains'),
  'Logical_Router_Policy.jump_chain': f('7.9.1', 'router policy chains'),
  'Logical_Router_Policy.bfd_sessions': f('7.2.1', 'BFD for ECMP router policies'),
  'Logical_Router_Policy.output_port': f('7.13.0', 'router policy output ports'),
  'Logical_Router_Port.status': f('7.1.0', 'distributed gateway port status'),
  'Logical_Router_Port.networks#min': f('7.8.0', 'router ports without addresses'),
  'Logical_Router_Static_Route.selection_fields': f('7.7.0', 'ECMP route selection fields'),
  'Logical_Router_Static_Route.selection_fields=ipv6_src': f('7.10.0', 'IPv6 selection fields'),
  'Logical_Router_Static_Route.selection_fields=ipv6_dst': f('7.10.0', 'IPv6 selection fields'),
  'Logical_Switch_Port.peer': f('7.11.0', 'switch port peers (spine-leaf switches)'),
  'Logical_Switch_Port.health_checks': f('7.17.0', 'switch port health checks'),
  Logical_Switch_Port_Health_Check: f('7.17.0', 'switch port health checks'),
  'Logical_Switch_Port_Health_Check.status': f('7.18.0', 'switch port health check status'),
  'Mirror.type=local': f('7.0.1', 'mirroring to a local port'),
  'Mirror.filter=both': f('7.0.2', 'mirroring both directions'),
  'Mirror.type=lport': f('7.12.0', 'overlay port mirroring'),
  'Mirror.mirror_rules': f('7.12.0', 'overlay port mirroring'),
  Mirror_Rule: f('7.12.0', 'overlay port mirroring'),
  'NAT.match': f('7.4.0', 'NAT match and priority'),
  'NAT.priority': f('7.4.0', 'NAT match and priority'),
  'QoS.action=mark': f('7.3.0', 'QoS packet marking'),
  'QoS.action#maxInteger': f('7.3.0', 'QoS packet marking'),
  'SSL.ssl_ciphersuites': f('7.9.0', 'TLS 1.3 cipher suites'),
};

const byDatabase: Record<string, Record<string, Feature>> = { OVN_Northbound: nbFeatures };

/** The feature behind a key, falling back from `T.c=v` / `T.c#x` to `T.c` to `T`. */
export function featureFor(database: string, key: string): Feature | undefined {
  const table = byDatabase[database] ?? {};
  const [column = key] = key.split(/[=#]/);
  const [name = column] = column.split('.');
  return table[key] ?? table[column] ?? table[name];
}
