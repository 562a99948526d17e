package fsil.app.cli;

import fsil.api.Plugin;
import picocli.CommandLine.Command;

import java.util.List;

/** Lists the discovered backbones with their parameters. */
@Command(name = "backbones", mixinStandardHelpOptions = true,
        description = "List the available backbones and their parameters (--backbone 'id[key=value,...]').")
final class BackbonesCommand extends PluginListing {
    @Override
    List<? extends Plugin> plugins() {
        return installed.backbones().all();
    }
}
