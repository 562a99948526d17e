package fsil.app.cli;

import fsil.api.Plugin;
import picocli.CommandLine.Command;

import java.util.List;

/** Lists the engines that can run units, with their parameters. */
@Command(name = "engines", mixinStandardHelpOptions = true,
        description = "List the available engines and their parameters (--engine ID --engine-option NAME=VALUE).")
final class EnginesCommand extends PluginListing {
    @Override
    List<? extends Plugin> plugins() {
        return installed.engines().all();
    }
}
