/**
 * Packages only some `ovnk` commands need (Graphviz and resvg for `ovnk diagram`'s pictures, the
 * Kubernetes client for `ovnk inventory`) are optional peer dependencies, so a program that uses
 * the library does not install them. Each loads on first use; when it is not installed, the error
 * names the package, what needs it and the command that installs it.
 */

/** An optional peer dependency that is not installed. */
export class MissingPackageError extends Error {
  override name = 'MissingPackageError';
  constructor(
    readonly packageName: string,
    readonly neededBy: string,
  ) {
    super(`${neededBy} needs the package ${packageName}, which is not installed: npm install ${packageName}`);
  }
}

/** `require(name)`, or a MissingPackageError naming `neededBy` when the package itself is absent. */
export function requireOptional<T>(name: string, neededBy: string): T {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(name) as T;
  } catch (error) {
    // A package that is there but lacks one of its own dependencies is not "not installed".
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'MODULE_NOT_FOUND' && (error as Error).message.includes(`'${name}'`))
      throw new MissingPackageError(name, neededBy);
    throw error;
  }
}
