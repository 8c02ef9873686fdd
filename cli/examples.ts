/**
 * The Examples section of every command's `--help`, as kubectl prints one: what a user types most.
 * Keyed by the command's path (`lab vm up`); a test walks the command tree and fails for a command
 * without an entry, so a new command gets its examples when it is added.
 */
import type { Command } from 'commander';

export const examples: Record<string, string[]> = {
  '': ['ovnk demo', 'ovnk plan -f networks.yaml', 'ovnk apply -f networks.yaml --lab', 'ovnk completion bash'],
  lab: ['ovnk lab up --nodes 3', 'ovnk lab status -o yaml', 'ovnk lab down'],
  'lab up': [
    'ovnk lab up --nodes 3',
    'ovnk lab up --nodes 4 --zones central   # one Northbound for every node (default: one per node)',
    'ovnk lab up --name second --nodes 2 --no-data-plane',
  ],
  'lab down': ['ovnk lab down', 'ovnk lab down --name second'],
  'lab status': ['ovnk lab status', 'ovnk lab status -o json | jq .nodes'],
  'lab restart': ['ovnk lab restart'],
  'lab inventory': ['ovnk lab inventory > inventory.yaml'],
  'lab pods': ['ovnk lab pods', 'ovnk lab pods -o yaml'],
  'lab exec': ['ovnk lab exec blue/pod-a -- ping -c1 103.103.1.3', 'ovnk lab exec blue/pod-a -- ip addr'],
  'lab vm': ['ovnk lab vm up --vm-nodes 2', 'ovnk lab vm status', 'ovnk lab vm down'],
  'lab vm up': ['ovnk lab vm up --vm-nodes 2', 'ovnk lab vm up --vm-nodes 1 --data'],
  'lab vm down': ['ovnk lab vm down'],
  'lab vm status': ['ovnk lab vm status -o json'],
  plan: [
    'ovnk plan -f networks.yaml',
    'ovnk plan -f inventory.yaml -f networks/   # a directory: its *.yaml, *.yml and *.json',
    'ovnk plan -f networks.yaml --lab --zone node-1 -o yaml',
    'ovnk plan -f networks.yaml --previous last-plan.json -o json > plan.json',
  ],
  apply: [
    'ovnk apply -f networks.yaml --lab',
    'ovnk apply -f networks.yaml --nb tcp:10.0.0.10:6641',
    'ovnk apply -f networks.yaml --nb node-1=ssl:10.0.0.11:6641 --nb node-2=ssl:10.0.0.12:6641 --private-key key.pem --certificate cert.pem --ca-cert ca.pem',
    'ovnk apply -f networks.yaml --lab --replace   # connects whose connectSubnets changed',
  ],
  diff: ['ovnk diff -f networks.yaml --lab', 'ovnk diff -f networks.yaml --nb tcp:10.0.0.10:6641 -o json'],
  audit: [
    'ovnk audit -f networks.yaml --lab',
    'ovnk inventory > inventory.yaml && ovnk audit -f inventory.yaml -f networks.yaml --nb node-1=ssl:10.0.0.11:6641 --nb node-2=ssl:10.0.0.12:6641',
    'ovnk audit -f networks.yaml --nb tcp:10.0.0.10:6641 --zone node-1 -o json | jq .zones',
  ],
  destroy: [
    'ovnk destroy -f networks.yaml --lab',
    'ovnk destroy -f networks.yaml --nb tcp:10.0.0.10:6641 --owner team-a',
  ],
  repair: ['ovnk repair -f networks.yaml --lab', 'ovnk repair -f networks.yaml --nb tcp:10.0.0.10:6641 --force'],
  demo: ['ovnk demo', 'ovnk demo --zones per-node --keep', 'ovnk demo --uplinks'],
  capacity: ['ovnk capacity -f networks.yaml', 'ovnk capacity -f networks.yaml -o json | jq .growth'],
  diagram: [
    'ovnk diagram -f networks.yaml > topology.svg',
    'ovnk diagram -f networks.yaml -o png --output-file topology.png',
    'ovnk diagram -f networks.yaml --connect colored-enterprise -o dot',
  ],
  inventory: [
    'ovnk inventory > inventory.yaml   # $KUBECONFIG, else ~/.kube/config',
    'ovnk inventory --kubeconfig admin.conf --context kind-ovn -o json',
    'ovnk inventory > inventory.yaml && ovnk plan -f inventory.yaml -f networks.yaml',
  ],
  completion: [
    'source <(ovnk completion bash)',
    'ovnk completion zsh > "${fpath[1]}/_ovnk"',
    'ovnk completion fish > ~/.config/fish/completions/ovnk.fish',
  ],
};

/** The command's path below the program: `lab vm up`; the program itself is ''. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Every command of the tree, the program first. */
export function allCommands(program: Command): Command[] {
  return [program, ...program.commands.flatMap((c) => allCommands(c))];
}

/** Append the Examples section to every command that has examples. */
export function addExamples(program: Command): void {
  for (const command of allCommands(program)) {
    const lines = examples[commandPath(command)];
    if (lines) command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  }
}
