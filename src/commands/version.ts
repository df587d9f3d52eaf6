import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base.js';
import { appVersion, versionInfo, type VersionInfo } from '../node/version/version.js';

export default class Version extends BaseCommand<typeof Version, VersionInfo | { version: string }> {
  static override summary = 'Print version information';
  static override examples = ['<%= config.bin %> version', '<%= config.bin %> version --long -o json'];
  static override flags = {
    long: Flags.boolean({ description: 'Print name, commit, build tags, Node.js and dependency versions' }),
  };

  async execute(): Promise<VersionInfo | { version: string }> {
    return this.flags.long ? versionInfo() : { version: appVersion() };
  }

  protected override async renderText(result: VersionInfo | { version: string }): Promise<string> {
    if (!('name' in result)) return result.version;
    return super.renderText(result) as Promise<string>;
  }
}
