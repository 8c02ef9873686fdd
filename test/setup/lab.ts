/** Placeholder global setup: replaced when the lab lands. */
export default async function setup(): Promise<() => Promise<void>> {
  return async () => {};
}
