/**
 * The `ovnk` command class: commander's, with usage errors in the order a user needs them.
 * Commander reports a missing mandatory option before an unknown one, so a misspelt `--fiel x`
 * said "required option '-f, --file <file>' not specified"; kubectl names the unknown flag first,
 * with the closest known one, and so do we.
 */
import { Command, type Option } from 'commander';

/** Commander's methods that its typings leave out. */
interface Hidden {
  missingMandatoryOptionValue(option: Option): void;
  unknownOption(flag: string): void;
}

export class OvnkCommand extends Command {
  override createCommand(name?: string): Command {
    return new OvnkCommand(name);
  }

  missingMandatoryOptionValue(option: Option): void {
    // What parsing left over: operands, then everything from the first unknown option on.
    const unknown = this.args.find((arg) => arg.startsWith('-') && arg !== '-');
    const hidden = Command.prototype as unknown as Hidden;
    if (unknown !== undefined) hidden.unknownOption.call(this, unknown);
    hidden.missingMandatoryOptionValue.call(this, option);
  }
}
