/**
 * A full garbage collection after each zone of a file command (issue 30.6). A zone in flight
 * holds about 25 MB (its rows, observed rows, the transaction's JSON) and leaves nothing behind
 * but its result, yet without this V8 collects late and raises its heap limit as zones go by:
 * `ovnk apply` of the 500-node file peaked at 443 MiB with 5 zones applied and 820 MiB with 20,
 * its heap between collections climbing to 666 MB while the heap live after a full collection
 * stayed 56 to 66 MB between zones. Collecting after each zone keeps the peak at what the zones
 * in flight hold (20 zones: 404 MiB), for up to 0.2 s of CPU per zone; so it collects only once
 * the heap in use has passed `HEAP_TO_COLLECT`, which the small zones of most files never reach
 * (a no-change re-apply of a lab zone costs about 30 ms of CPU in all). `gc` is exposed at run
 * time (the flag reaches contexts made after it), so `ovnk` needs no node flag.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The heap in use past which a finished zone's garbage is collected at once. */
const HEAP_TO_COLLECT = 256 * 1024 * 1024;

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (getHeapStatistics().used_heap_size < HEAP_TO_COLLECT) return;
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
